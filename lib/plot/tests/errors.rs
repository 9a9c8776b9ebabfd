//! Every `PlotError` variant a user can trigger, asserted by variant and by message.
//!
//! Data that has nothing drawable is not an error (see `output.rs`); these are the inputs that
//! cannot make a plot at all, or a file that cannot be written.

use difflab_plot::{
    BenchmarkOptions, Groups, LineOptions, Plot, PlotError, Series, SpyOptions, MAX_PIXELS,
};
use expect_test::expect;

fn messages(errors: &[PlotError]) -> String {
    errors.iter().map(|e| format!("{e}\n")).collect()
}

#[test]
fn bad_inputs_are_typed_errors() {
    let empty = Plot::lines(Vec::new(), LineOptions::default()).unwrap_err();
    assert!(matches!(empty, PlotError::EmptyData { what: "series" }));

    let mismatched = Plot::lines(
        vec![Series::new("f", vec![1.0, 2.0], vec![1.0])],
        LineOptions::default(),
    )
    .unwrap_err();
    assert!(matches!(
        mismatched,
        PlotError::MismatchedLengths {
            expected: 2,
            found: 1,
            ..
        }
    ));

    let no_rows = Plot::benchmark(Vec::new(), BenchmarkOptions::default()).unwrap_err();
    assert!(matches!(no_rows, PlotError::EmptyData { .. }));

    let outside = Plot::spy(2, 3, vec![(0, 0), (1, 3)], SpyOptions::default()).unwrap_err();
    assert!(matches!(
        outside,
        PlotError::EntryOutOfBounds {
            row: 1,
            col: 3,
            nrows: 2,
            ncols: 3
        }
    ));

    let groups = SpyOptions {
        title: None,
        groups: Some(Groups::Columns(vec![1, 2])),
    };
    let wrong_groups = Plot::spy(2, 3, Vec::new(), groups).unwrap_err();
    assert!(matches!(
        wrong_groups,
        PlotError::MismatchedLengths {
            expected: 3,
            found: 2,
            ..
        }
    ));

    let bicoloring = SpyOptions {
        title: None,
        groups: Some(Groups::Bidirectional {
            rows: vec![1],
            columns: vec![1, 0, 2],
        }),
    };
    let wrong_rows = Plot::spy(2, 3, Vec::new(), bicoloring).unwrap_err();
    assert!(matches!(
        wrong_rows,
        PlotError::MismatchedLengths {
            expected: 2,
            found: 1,
            ..
        }
    ));

    let spy = Plot::spy(1, 1, vec![(0, 0)], SpyOptions::default()).unwrap();
    let zero = spy.clone().with_size(0, 100).unwrap_err();
    let huge = spy.clone().with_size(100, MAX_PIXELS + 1).unwrap_err();
    assert!(matches!(zero, PlotError::InvalidSize { width: 0, .. }));
    assert!(matches!(huge, PlotError::InvalidSize { .. }));

    let extension = spy.save("plot.pdf").unwrap_err();
    let no_extension = spy.save("plot").unwrap_err();
    assert!(matches!(extension, PlotError::UnknownExtension { .. }));
    assert!(matches!(no_extension, PlotError::UnknownExtension { .. }));

    let io = spy.save("/nonexistent-directory/plot.svg").unwrap_err();
    assert!(matches!(io, PlotError::Io { .. }));
    assert!(std::error::Error::source(&io).is_some());

    expect![[r#"
        nothing to plot: no series given
        mismatched lengths: xs and ys of series "f": expected 2, found 1
        nothing to plot: no benchmark rows given
        entry (1, 3) (0-based) is outside a 2×3 matrix
        mismatched lengths: column groups and matrix columns: expected 3, found 2
        invalid image size 0×100: each side must be between 1 and 4096
        cannot save a plot to plot.pdf: the extension must be .svg or .png
    "#]]
    .assert_eq(&messages(&[
        empty,
        mismatched,
        no_rows,
        outside,
        wrong_groups,
        zero,
        extension,
    ]));
}
