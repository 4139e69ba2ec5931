//! Fumen (v115) codec: work in progress.
