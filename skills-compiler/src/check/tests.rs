//! Tests of whole checks.
