//! End-to-end tests of `difflab-plot` through its public API: SVG structure, decoded PNG
//! pixels, terminal snapshots, log axes, degenerate data and the 8192×8192 spy plot.
//!
//! Error cases live in `errors.rs`; unit tests of axes, palette and the braille canvas sit next
//! to their modules.

use difflab_plot::{
    BenchmarkOptions, BenchmarkRow, Groups, LineOptions, Plot, Scale, Series, SpyOptions,
};
use expect_test::expect;

/// Checks that `svg` is one well-nested `<svg>` element and returns its start tags' names.
fn svg_elements(svg: &str) -> Vec<String> {
    let mut open: Vec<String> = Vec::new();
    let mut names = Vec::new();
    let mut rest = svg;
    while let Some(start) = rest.find('<') {
        let end = rest[start..].find('>').expect("unterminated tag") + start;
        let tag = &rest[start + 1..end];
        rest = &rest[end + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(
                open.pop().as_deref(),
                Some(name.trim()),
                "mismatched </{name}>"
            );
        } else if !tag.starts_with('?') && !tag.starts_with('!') {
            let name: String = tag.chars().take_while(|c| c.is_alphanumeric()).collect();
            assert!(!name.is_empty(), "empty tag in {tag:?}");
            names.push(name.clone());
            if !tag.ends_with('/') {
                open.push(name);
            }
        }
        if open.is_empty() {
            assert!(rest.trim().is_empty(), "content after the root element");
        }
    }
    assert!(open.is_empty(), "unclosed elements {open:?}");
    assert_eq!(names.first().map(String::as_str), Some("svg"));
    names
}

/// Decodes PNG bytes into (width, height, RGB rows).
fn decode_png(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "no PNG signature");
    let mut reader = png::Decoder::new(std::io::Cursor::new(bytes))
        .read_info()
        .expect("PNG header decodes");
    let mut rgb = vec![0; reader.output_buffer_size().expect("size fits")];
    let info = reader.next_frame(&mut rgb).expect("PNG data decodes");
    assert_eq!(info.color_type, png::ColorType::Rgb);
    rgb.truncate(info.buffer_size());
    (info.width, info.height, rgb)
}

/// Pixels darker than mid-grey (text, axes, ink markers) in rows `rows`.
fn dark_pixels(width: u32, rgb: &[u8], rows: std::ops::Range<u32>) -> usize {
    let row_bytes = width as usize * 3;
    rows.flat_map(|y| rgb[y as usize * row_bytes..][..row_bytes].chunks(3))
        .filter(|px| px.iter().map(|&c| u32::from(c)).sum::<u32>() < 3 * 100)
        .count()
}

fn identity(n: usize) -> Plot {
    Plot::spy(
        n,
        n,
        (0..n).map(|i| (i, i)).collect(),
        SpyOptions::default(),
    )
    .unwrap()
}

#[test]
fn spy_svg_is_well_formed_with_one_marker_per_nonzero() {
    let entries = vec![(0, 0), (0, 2), (1, 1), (2, 0), (2, 2), (2, 2)];
    let plot = Plot::spy(3, 3, entries, SpyOptions::default()).unwrap();
    let svg = plot.to_svg().unwrap();
    let names = svg_elements(&svg);
    assert!(names.iter().any(|n| n == "text"));
    // The duplicate (2, 2) is one structural nonzero; markers are filled with ink.
    assert_eq!(svg.matches(r##"fill="#1E1E1E" stroke="none""##).count(), 5);
    assert!(svg.contains("3×3, nnz = 5"));
    assert!(!svg.contains("NaN"));
}

#[test]
fn coloured_spy_svg_uses_one_colour_per_group_and_says_how_many() {
    let plot = Plot::spy(
        3,
        4,
        vec![(0, 0), (1, 1), (2, 2), (0, 3)],
        SpyOptions {
            title: Some("coloring".to_string()),
            groups: Some(Groups::Columns(vec![1, 2, 0, 1])),
        },
    )
    .unwrap();
    let svg = plot.to_svg().unwrap();
    svg_elements(&svg);
    assert!(svg.contains("2 colors") && svg.contains("coloring"));
    // Group 0 is grey; groups 1 and 2 get the first two palette colours (markers + swatches).
    assert_eq!(svg.matches(r##"fill="#A0A0A0""##).count(), 1);
    assert_eq!(svg.matches(r##"fill="#009AFA""##).count(), 2 + 1);
    assert_eq!(svg.matches(r##"fill="#E36F47""##).count(), 1 + 1);
}

#[test]
fn bicoloured_spy_gives_row_groups_their_own_colours_after_the_column_groups() {
    // A 3×3 arrowhead (0-based entries) with columns 0 and 2 in column groups 1 and 2, row 0 in
    // row group 1, and column 1 and rows 1 and 2 neutral.
    let plot = Plot::spy(
        3,
        3,
        vec![(0, 0), (0, 1), (0, 2), (1, 0), (2, 0), (1, 1), (2, 2)],
        SpyOptions {
            title: None,
            groups: Some(Groups::Bidirectional {
                rows: vec![1, 0, 0],
                columns: vec![1, 0, 2],
            }),
        },
    )
    .unwrap();
    let svg = plot.to_svg().unwrap();
    assert!(svg.contains("3 colors"));
    // Column group 1: column 0 (3 entries); column group 2: column 2 (2 entries); row group 1
    // (the third colour): entry (0, 1), in the neutral column; one swatch each.
    assert_eq!(svg.matches(r##"fill="#009AFA""##).count(), 3 + 1);
    assert_eq!(svg.matches(r##"fill="#E36F47""##).count(), 2 + 1);
    assert_eq!(svg.matches(r##"fill="#3EA44E""##).count(), 1 + 1);
    // Entry (1, 1) has neither a column nor a row group: neutral grey.
    assert_eq!(svg.matches(r##"fill="#A0A0A0""##).count(), 1);
}

#[test]
fn spy_png_decodes_at_its_size_with_markers_and_text() {
    let plot = Plot::spy(
        5,
        5,
        vec![(0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (0, 4)],
        SpyOptions {
            title: None,
            groups: Some(Groups::Rows(vec![1, 2, 3, 1, 0])),
        },
    )
    .unwrap()
    .with_size(300, 320)
    .unwrap();
    let (width, height, rgb) = decode_png(&plot.to_png().unwrap());
    assert_eq!((width, height), (300, 320));
    assert_eq!(plot.size(), (300, 320));
    // A marker of row group 1 (palette blue) is drawn.
    let blue = rgb.chunks(3).filter(|px| *px == [0, 154, 250]).count();
    assert!(blue > 100, "only {blue} blue pixels");
    // The bottom band holds only the caption: with the font missing it would be blank.
    assert!(dark_pixels(width, &rgb, height - 40..height) > 50);
}

#[test]
fn line_png_has_title_text_and_plotted_lines() {
    let xs: Vec<f64> = (0..20).map(f64::from).collect();
    let plot = Plot::lines(
        vec![Series::new(
            "square",
            xs.clone(),
            xs.iter().map(|x| x * x).collect(),
        )],
        LineOptions {
            title: Some("Squares".to_string()),
            ..LineOptions::default()
        },
    )
    .unwrap();
    let (width, height, rgb) = decode_png(&plot.to_png().unwrap());
    assert_eq!((width, height), plot.size());
    assert!(dark_pixels(width, &rgb, 0..40) > 50, "title text missing");
    let line = rgb.chunks(3).filter(|px| *px == [0, 154, 250]).count();
    assert!(line > 300, "only {line} line pixels");
}

#[test]
fn identity_spy_in_the_terminal_lights_the_diagonal() {
    expect![[r#"
          ┌────────────────┐
        1 │⣿⣿⣿⡇⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀│
          │⠿⠿⠿⠇⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀│
          │⠀⠀⠀⠀⣿⣿⣿⡇⠀⠀⠀⠀⠀⠀⠀⠀│
          │⠀⠀⠀⠀⠿⠿⠿⠇⠀⠀⠀⠀⠀⠀⠀⠀│
          │⠀⠀⠀⠀⠀⠀⠀⠀⣿⣿⣿⡇⠀⠀⠀⠀│
          │⠀⠀⠀⠀⠀⠀⠀⠀⠿⠿⠿⠇⠀⠀⠀⠀│
          │⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⣿⣿⣿⡇│
        4 │⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠿⠿⠿⠇│
          └────────────────┘
           1              4
           4×4, nnz = 4
    "#]]
    .assert_eq(&identity(4).to_terminal(20, false));
    // Narrower than the matrix: one dot per entry, still on the diagonal.
    expect![[r#"
           ┌───────┐
         1 │⠑⢄⠀⠀⠀⠀⠀│
           │⠀⠀⠑⢄⠀⠀⠀│
           │⠀⠀⠀⠀⠑⢄⠀│
        14 │⠀⠀⠀⠀⠀⠀⠑│
           └───────┘
            1    14
            14×14, nnz = 14
    "#]]
    .assert_eq(&identity(14).to_terminal(16, false));
}

#[test]
fn terminal_colours_are_ansi_and_optional() {
    let plot = Plot::spy(
        2,
        2,
        vec![(0, 0), (1, 1)],
        SpyOptions {
            title: None,
            groups: Some(Groups::Columns(vec![1, 2])),
        },
    )
    .unwrap();
    let plain = plot.to_terminal(30, false);
    assert!(!plain.contains('\x1b'));
    assert!(plain.contains("2×2, nnz = 2, 2 colors"));
    let coloured = plot.to_terminal(30, true);
    assert!(coloured.contains("\x1b[38;5;39m") && coloured.contains("\x1b[0m"));
}

#[test]
fn log_scale_line_plot_labels_decades_and_skips_bad_points() {
    let xs = vec![1.0, 10.0, 100.0, 1000.0, -5.0, 1e4];
    let ys = vec![1e-1, 1e-2, f64::NAN, 1e-4, 1e-5, 0.0];
    let plot = Plot::lines(
        vec![Series::new("decay", xs, ys)],
        LineOptions {
            x_label: Some("n".to_string()),
            y_label: Some("error".to_string()),
            x_scale: Scale::Log,
            y_scale: Scale::Log,
            markers: true,
            ..LineOptions::default()
        },
    )
    .unwrap();
    let svg = plot.to_svg().unwrap();
    svg_elements(&svg);
    for label in [
        "10⁰", "10¹", "10²", "10³", "10⁻¹", "10⁻²", "10⁻³", "10⁻⁴", "error", "decay",
    ] {
        assert!(svg.contains(label), "missing {label}");
    }
    assert!(!svg.contains("NaN"));
    expect![[r#"
        error
             ┌───────────────────────────────────────┐
        10⁻¹ ┤⠀⠰⠦⣀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀│
             │⠀⠀⠀⠀⠉⠑⠢⢄⡀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀│
             │⠀⠀⠀⠀⠀⠀⠀⠀⠈⠉⠒⠤⣀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀│
        10⁻² ┤⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠙⠃⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀│
             │⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀│
        10⁻³ ┤⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀│
             │⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀│
             │⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀│
        10⁻⁴ ┤⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⠀⣤⠀│
             └─┬───────────┬───────────┬───────────┬─┘
              10⁰         10¹         10²         10³
                                 n
        ─•─ decay
    "#]]
    .assert_eq(&plot.to_terminal(46, false));
}

#[test]
fn benchmark_chart_styles_tags_and_lists_backends_then_tags() {
    let mut rows = Vec::new();
    for (backend, speed) in [("AutoForwardDiff()", 1.0), ("AutoZygote()", 3.0)] {
        for n in [10.0, 100.0, 1000.0] {
            rows.push(BenchmarkRow::new(backend, "prepared", n, speed * 1e-7 * n));
            rows.push(BenchmarkRow::new(
                backend,
                "unprepared",
                n,
                speed * 5e-7 * n,
            ));
        }
    }
    let plot = Plot::benchmark(rows, BenchmarkOptions::default()).unwrap();
    assert_eq!(
        plot.to_string(),
        "benchmark chart: 2 backends, 2 tags, 12 rows"
    );
    let svg = plot.to_svg().unwrap();
    svg_elements(&svg);
    for label in [
        "AutoForwardDiff()",
        "AutoZygote()",
        "prepared",
        "unprepared",
        "input size",
        "time (s)",
    ] {
        assert!(svg.contains(label), "missing {label}");
    }
    let text = plot.to_terminal(90, false);
    let legend = text.lines().last().unwrap();
    for entry in [
        "─•─ AutoForwardDiff()",
        "─•─ AutoZygote()",
        "─── prepared",
        "╌╌╌ unprepared",
    ] {
        assert!(legend.contains(entry), "{text}");
    }
    let (width, height, _) = decode_png(&plot.to_png().unwrap());
    assert_eq!((width, height), plot.size());
}

#[test]
fn degenerate_data_renders_empty_plots() {
    let empty_matrix = Plot::spy(0, 0, Vec::new(), SpyOptions::default()).unwrap();
    let bad_values = Plot::lines(
        vec![
            Series::new("nan", vec![f64::NAN, 1.0], vec![1.0, f64::INFINITY]),
            Series::new("empty", Vec::new(), Vec::new()),
            Series::new("huge", vec![1e308, -1e308], vec![f64::MAX, f64::MIN]),
        ],
        LineOptions {
            y_scale: Scale::Log,
            ..LineOptions::default()
        },
    )
    .unwrap();
    let single = Plot::lines(
        vec![Series::new("point", vec![2.0], vec![3.0])],
        LineOptions::default(),
    )
    .unwrap();
    for plot in [empty_matrix, bad_values, single] {
        svg_elements(&plot.to_svg().unwrap());
        decode_png(&plot.to_png().unwrap());
        for width in [0, 1, 17, 200, usize::MAX] {
            assert!(plot.to_terminal(width, true).ends_with('\n'));
        }
    }
    // Images too small for the axes still render, whatever fits.
    let chart = Plot::lines(
        vec![Series::new("s", vec![1.0, 2.0], vec![3.0, 4.0])],
        LineOptions::default(),
    )
    .unwrap();
    for plot in [identity(3), chart] {
        for (w, h) in [(1, 1), (10, 300), (300, 10), (60, 60)] {
            let small = plot.clone().with_size(w, h).unwrap();
            assert_eq!(decode_png(&small.to_png().unwrap()).0, w);
            svg_elements(&small.to_svg().unwrap());
        }
    }
}

#[test]
fn save_picks_the_format_from_the_extension() {
    let dir = std::env::temp_dir().join(format!("difflab-plot-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let plot = identity(3);
    plot.save(dir.join("a.svg")).unwrap();
    plot.save(dir.join("b.PNG")).unwrap();
    let svg = std::fs::read_to_string(dir.join("a.svg")).unwrap();
    svg_elements(&svg);
    decode_png(&std::fs::read(dir.join("b.PNG")).unwrap());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// 8192×8192 with 49k nonzeros: a 5-point stencil's worth of scattered entries, coloured.
#[test]
fn large_spy_plot_is_binned_and_fast() {
    let n = 8192;
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut entries: Vec<(usize, usize)> = (0..n).map(|i| (i, i)).collect();
    while entries.len() < 49_152 {
        let row = (next() % n as u64) as usize;
        let offset = (next() % 512) as usize;
        entries.push((row, (row + offset) % n));
    }
    let groups = (0..n).map(|j| j % 7).collect();
    let start = std::time::Instant::now();
    let plot = Plot::spy(
        n,
        n,
        entries,
        SpyOptions {
            title: Some("8192×8192".to_string()),
            groups: Some(Groups::Columns(groups)),
        },
    )
    .unwrap();
    let svg = plot.to_svg().unwrap();
    let png = plot.to_png().unwrap();
    let text = plot.to_terminal(100, true);
    let elapsed = start.elapsed();
    // Binned to the 480×480 frame: far fewer rectangles than entries.
    let rects = svg.matches("<rect").count();
    assert!(rects < 40_000, "{rects} rectangles");
    decode_png(&png);
    assert!(text.contains("8192×8192, nnz = "));
    // Generous for an unoptimised build on a shared machine; typically well under a second.
    assert!(elapsed.as_secs_f64() < 20.0, "took {elapsed:?}");
}
