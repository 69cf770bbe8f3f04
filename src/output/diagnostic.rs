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
  for (i, c) in line_text.char_indices() {
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
  let shown: String = line_text.replace('\t', "    ");

  let mut out = String::new();
  out.push_str(&format!(
    "{gutter}{} {}:{line_number}:{column}\n",
    painter.paint(blue, "——▶"),
    token.path().display()
  ));
  out.push_str(&format!("{gutter} {}\n", painter.paint(blue, "│")));
  out.push_str(&format!("{} {}\n", painter.paint(blue, &format!("{number} │")), shown));
  out.push_str(&format!(
    "{gutter} {} {}{}\n",
    painter.paint(blue, "│"),
    " ".repeat(pad),
    painter.paint(Ansi::Red.bold(), &"^".repeat(carets))
  ));
  out
}
