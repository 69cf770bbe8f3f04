//! Rendering of errors: the `error: …` line and the source excerpt with
//! its `——▶ path:line:col` arrow and carets.

use nu_ansi_term::Color as Ansi;
use unicode_width::UnicodeWidthChar;

use crate::color::Painter;
use crate::syntax::token::Token;

/// `error: MESSAGE\n`, each line of a multi-line message kept as is.
pub(crate) fn error_line(painter: &Painter, message: &str) -> String {
  format!("{}: {}\n", painter.error_label(), painter.message(message))
}

fn char_width(c: char) -> usize {
  if c == '\t' {
    4
  } else {
    UnicodeWidthChar::width(c).unwrap_or(0)
  }
}

/// The excerpt below an error message, pointing at `token`.
pub fn excerpt(painter: &Painter, token: &Token) -> String {
  let mut out = String::new();
  push_excerpt(&mut out, painter, token);
  out
}

/// Append the excerpt below an error message, pointing at `token`, to
/// `out`. Its size is known beforehand and reserved at once, and the line
/// is copied once, straight into `out`: a source line of a gigabyte costs
/// its size once more, not four times, and if even that much memory cannot
/// be had the excerpt leaves the line out rather than abort.
pub(crate) fn push_excerpt(out: &mut String, painter: &Painter, token: &Token) {
  let (line, offset, length) = (token.line as usize, token.offset as usize, token.length as usize);
  let line_number = line + 1;
  let column = token.column() + 1;
  let src = token.src();

  let line_start =
    src.match_indices('\n').nth(line.wrapping_sub(1)).map_or(
      0,
      |(i, _)| {
        if line == 0 {
          0
        } else {
          i + 1
        }
      },
    );
  let line_end = src[line_start..].find('\n').map_or(src.len(), |i| line_start + i);
  // Like `str::lines`: a `\r` is only dropped as part of a `\r\n` line end.
  let line_text = match src[line_start..line_end].strip_suffix('\r') {
    Some(text) if line_end < src.len() => text,
    _ => &src[line_start..line_end],
  };

  let token_start_in_line = offset.saturating_sub(line_start);
  let token_end_in_line = (token_start_in_line + length).min(line_text.len());

  let mut pad = 0;
  let mut carets = 0;
  let mut tabs = 0;
  for (i, c) in line_text.char_indices() {
    tabs += usize::from(c == '\t');
    if i < token_start_in_line {
      pad += char_width(c);
    } else if i < token_end_in_line {
      carets += char_width(c);
    }
  }
  if token_start_in_line > line_text.len() {
    pad = line_text.chars().map(char_width).sum::<usize>();
  }
  let carets = carets.max(1);

  let number = line_number.to_string();
  let gutter = " ".repeat(number.len());
  let blue = Ansi::Blue.bold();
  let red = Ansi::Red.bold();

  let header = format!(
    "{gutter}{} {}:{line_number}:{column}\n{gutter} {}\n{} ",
    painter.paint(blue, "——▶"),
    token.path().display(),
    painter.paint(blue, "│"),
    painter.paint(blue, &format!("{number} │")),
  );
  let bar = format!("\n{gutter} {} ", painter.paint(blue, "│"));
  let (caret_start, caret_end) = if painter.active {
    (red.prefix().to_string(), red.suffix().to_string())
  } else {
    (String::new(), String::new())
  };
  let shown = line_text.len() + 3 * tabs;
  let size =
    header.len() + shown + bar.len() + pad + caret_start.len() + carets + caret_end.len() + 1;
  out.push_str(&header);
  if out.try_reserve_exact(size - header.len()).is_err() {
    out.push_str("(a line too long to show)\n");
    return;
  }
  for (index, piece) in line_text.split('\t').enumerate() {
    if index > 0 {
      out.push_str("    ");
    }
    out.push_str(piece);
  }
  out.push_str(&bar);
  out.extend(std::iter::repeat_n(' ', pad));
  out.push_str(&caret_start);
  out.extend(std::iter::repeat_n('^', carets));
  out.push_str(&caret_end);
  out.push('\n');
}

#[cfg(test)]
mod tests {
  use super::*;
  use crate::color::{Stream, UseColor};
  use crate::syntax::lexer::lex;
  use crate::syntax::sources::Source;

  /// A long line is copied once, into one allocation of the excerpt's
  /// exact size, in colour or not, tabs expanded.
  #[test]
  fn an_excerpt_takes_one_allocation_of_its_size() {
    let source = Source::new(format!("x := 'y'\t+ {}\t+ 'z'\n", "a".repeat(100_000)), "justfile");
    let tokens = lex(&source).expect("lexes");
    let token = tokens.iter().find(|token| token.lexeme() == "+").expect("a `+`");
    for painter in [Painter::plain(), Painter::new(UseColor::Always, Stream::Stderr)] {
      let mut out = String::new();
      push_excerpt(&mut out, &painter, token);
      assert_eq!(out.capacity(), out.len());
      assert_eq!(out, excerpt(&painter, token));
    }
    let plain = excerpt(&Painter::plain(), token);
    let line = format!("x := 'y'    + {}    + 'z'", "a".repeat(100_000));
    assert_eq!(plain, format!(" ——▶ justfile:1:10\n  │\n1 │ {line}\n  │ {}^\n", " ".repeat(12)));
  }
}
