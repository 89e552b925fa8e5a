//! The handle to one skill of a bundle; its methods are in `skill.rs`.

use crate::__private::{BundleData, SkillData};

/// A skill in a [`Bundle`](crate::Bundle).
#[derive(Clone, Copy)]
pub struct Skill<'a> {
    pub(crate) bundle: &'a BundleData,
    pub(crate) data: &'a SkillData,
}
