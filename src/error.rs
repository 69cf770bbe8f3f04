//! Top-level error type: one variant per layer.
