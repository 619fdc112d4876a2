//! The implicit-dynamic-frames verifier.
