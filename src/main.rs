fn main() {
  std::process::exit(just::run());
}
