//! `resources/directory/read` (SEP-2640, declared as `directoryRead`): the
//! direct children of a skill's directory.
//!
//! Every directory level of a skill is a directory resource: the skill's
//! root, `skill://<name>` (`skill://<plugin>/<skill>` for a plugin skill),
//! and each folder that holds a file, `skill://<name>/scripts`, written
//! without a trailing slash (one is accepted). The answer lists the files
//! directly inside, with the metadata `resources/list` gives them, and the
//! folders, with MIME type `inode/directory`, in path order. A URI that is
//! not a directory of a skill (a file, a path no file is under, a skill
//! that does not exist) is `-32602`, as the extension says. Like
//! `resources/read`, this answers for any skill of the bundle, listed or
//! not.

use rmcp::ErrorData;
use rmcp::model::{DIRECTORY_MIME_TYPE, ListResourcesResult, Resource};

use crate::resources::{self, SCHEME};
use skills_bundle::Bundle;

/// The children of the directory `uri` names.
pub fn read(bundle: &Bundle, uri: &str) -> Result<ListResourcesResult, ErrorData> {
    let not_a_directory =
        || ErrorData::invalid_params(format!("`{uri}` is not a directory of a skill"), None);
    let trimmed = uri.strip_suffix('/').unwrap_or(uri);
    if !trimmed.starts_with(SCHEME) {
        return Err(not_a_directory());
    }
    let Some((skill, dir)) = resources::resolve(bundle, &format!("{trimmed}/")) else {
        return Err(not_a_directory());
    };
    let dir = dir.strip_suffix('/').unwrap_or(&dir);
    let prefix = if dir.is_empty() {
        String::new()
    } else {
        format!("{dir}/")
    };
    let mut children: Vec<Resource> = Vec::new();
    let mut folders: Vec<&str> = Vec::new();
    let mut any = false;
    for file in skill.files() {
        let Some(rest) = file.path().strip_prefix(prefix.as_str()) else {
            continue;
        };
        any = true;
        match rest.split_once('/') {
            Some((folder, _)) => {
                // Files are sorted by path: a folder's files are adjacent.
                if folders.last() != Some(&folder) {
                    folders.push(folder);
                    children.push(
                        Resource::new(
                            resources::file_uri(skill.name(), &format!("{prefix}{folder}")),
                            folder,
                        )
                        .with_mime_type(DIRECTORY_MIME_TYPE),
                    );
                }
            }
            None => children.push(resources::entry(&skill, &file)),
        }
    }
    if !any {
        return Err(not_a_directory());
    }
    Ok(ListResourcesResult::with_all_items(children))
}
