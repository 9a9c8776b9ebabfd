//! Writes one of each kind of plot to a directory, as SVG and PNG, and prints the terminal
//! renderings: `cargo run -p difflab-plot --example gallery -- DIR`.
//!
//! Useful to look at the output after changing a renderer; the data imitates what difflab
//! produces (a colored banded Jacobian, a convergence curve, a backend benchmark).

use difflab_plot::{
    BenchmarkOptions, BenchmarkRow, Groups, LineOptions, Plot, PlotError, Scale, Series, SpyOptions,
};

fn main() -> Result<(), PlotError> {
    let dir = std::env::args().nth(1).unwrap_or_else(|| ".".to_string());

    // A tridiagonal 30×30 Jacobian with a 3-coloring of its columns.
    let n: usize = 30;
    let entries: Vec<(usize, usize)> = (0..n)
        .flat_map(|i| [i.wrapping_sub(1), i, i + 1].map(move |j| (i, j)))
        .filter(|&(_, j)| j < n)
        .collect();
    let spy = Plot::spy(
        n,
        n,
        entries,
        SpyOptions {
            title: Some("Tridiagonal Jacobian, column coloring".to_string()),
            groups: Some(Groups::Columns((0..n).map(|j| j % 3 + 1).collect())),
        },
    )?;

    // The Jacobian pattern of the 2D Brusselator on a 64×64 periodic grid: 8192 unknowns, each
    // coupled to its four neighbours, itself and the other species at the same point.
    let grid = 64;
    let index = |i: usize, j: usize, species: usize| species * grid * grid + j * grid + i;
    let mut brusselator = Vec::new();
    for species in 0..2 {
        for j in 0..grid {
            for i in 0..grid {
                let row = index(i, j, species);
                for (di, dj) in [(0, 0), (1, 0), (grid - 1, 0), (0, 1), (0, grid - 1)] {
                    brusselator.push((row, index((i + di) % grid, (j + dj) % grid, species)));
                }
                brusselator.push((row, index(i, j, 1 - species)));
            }
        }
    }
    let large = Plot::spy(
        2 * grid * grid,
        2 * grid * grid,
        brusselator,
        SpyOptions {
            title: Some("Brusselator 2D, N = 64".to_string()),
            groups: None,
        },
    )?;

    let xs: Vec<f64> = (1..=40).map(f64::from).collect();
    let lines = Plot::lines(
        vec![
            Series::new(
                "Newton",
                xs.clone(),
                xs.iter().map(|k| 0.5f64.powf(k * k / 40.0)).collect(),
            ),
            Series::new(
                "gradient descent",
                xs.clone(),
                xs.iter().map(|k| 0.8f64.powf(*k)).collect(),
            ),
        ],
        LineOptions {
            title: Some("Convergence".to_string()),
            x_label: Some("iteration".to_string()),
            y_label: Some("residual".to_string()),
            y_scale: Scale::Log,
            markers: true,
            ..LineOptions::default()
        },
    )?;

    let mut rows = Vec::new();
    for (b, backend) in [
        "AutoEnzyme()",
        "AutoForwardDiff()",
        "AutoMooncake()",
        "AutoReverseDiff()",
        "AutoZygote()",
    ]
    .into_iter()
    .enumerate()
    {
        for size in [10.0f64, 100.0, 1000.0, 10000.0] {
            let base = 1e-7 * (b as f64 + 1.0) * size.powf(0.8 + 0.05 * b as f64);
            rows.push(BenchmarkRow::new(backend, "prepared", size, base));
            rows.push(BenchmarkRow::new(
                backend,
                "unprepared",
                size,
                base * (1.0 + 20.0 / (b as f64 + 1.0)),
            ));
        }
    }
    let bench = Plot::benchmark(
        rows,
        BenchmarkOptions {
            title: Some("Gradient of x ↦ ‖x‖²".to_string()),
            ..BenchmarkOptions::default()
        },
    )?;

    let plots = [
        ("spy", &spy),
        ("brusselator", &large),
        ("lines", &lines),
        ("benchmark", &bench),
    ];
    for (name, plot) in plots {
        plot.save(format!("{dir}/{name}.svg"))?;
        plot.save(format!("{dir}/{name}.png"))?;
        println!("{plot}\n{}", plot.to_terminal(80, true));
    }
    Ok(())
}
