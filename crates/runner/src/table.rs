//! The one way marathon prints a table: columns two spaces apart, each as wide as its widest
//! cell, no trailing spaces. The run's tables, `--by` breakdowns, `marathon runs` and the
//! tuner's sweeps all print through it.

use std::fmt::Write as _;

/// How a table's cells line up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    /// Every column to the right (figures).
    Numbers,
    /// Every column to the right but the last, free text, left as it is.
    NumbersThenText,
    /// Every column to the left (names, dates, words).
    Text,
}

/// `rows` (the header first, if any) as lines of aligned columns.
pub fn render(rows: &[Vec<String>], align: Align) -> String {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let mut widths = vec![0; columns];
    for row in rows {
        for (i, cell) in row.iter().enumerate() {
            widths[i] = widths[i].max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for row in rows {
        let mut line = String::new();
        for (i, cell) in row.iter().enumerate() {
            if i > 0 {
                line.push_str("  ");
            }
            let width = widths[i];
            match align {
                Align::NumbersThenText if i + 1 == columns => line.push_str(cell),
                Align::Numbers | Align::NumbersThenText => {
                    let _ = write!(line, "{cell:>width$}");
                }
                Align::Text => {
                    let _ = write!(line, "{cell:<width$}");
                }
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows() -> Vec<Vec<String>> {
        vec![
            vec!["a".into(), "bb".into(), "c".into()],
            vec!["ddd".into(), "e".into(), "free text".into()],
        ]
    }

    #[test]
    fn columns_line_up_as_asked_without_trailing_spaces() {
        assert_eq!(
            render(&rows(), Align::Numbers),
            "  a  bb          c\nddd   e  free text\n"
        );
        assert_eq!(
            render(&rows(), Align::NumbersThenText),
            "  a  bb  c\nddd   e  free text\n"
        );
        assert_eq!(
            render(&rows(), Align::Text),
            "a    bb  c\nddd  e   free text\n"
        );
    }
}
