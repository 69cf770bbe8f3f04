//! Running recipes: dependency order, linewise and script execution, signals.
