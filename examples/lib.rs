//! Shared helpers for the runnable examples (argument parsing lives in each example).
