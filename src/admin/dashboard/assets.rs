//! The dashboard's static files, compiled into the binary: the dashboard works offline and
//! needs nothing beside the executable.

use super::super::Answer;

/// Name, content type and bytes of every asset.
const ASSETS: &[(&str, &str, &[u8])] = &[
    (
        "app.css",
        "text/css; charset=utf-8",
        include_bytes!("assets/app.css"),
    ),
    (
        "core.js",
        "text/javascript; charset=utf-8",
        include_bytes!("assets/core.js"),
    ),
    (
        "charts.js",
        "text/javascript; charset=utf-8",
        include_bytes!("assets/charts.js"),
    ),
    (
        "keys.js",
        "text/javascript; charset=utf-8",
        include_bytes!("assets/keys.js"),
    ),
    (
        "usage.js",
        "text/javascript; charset=utf-8",
        include_bytes!("assets/usage.js"),
    ),
    (
        "playground.js",
        "text/javascript; charset=utf-8",
        include_bytes!("assets/playground.js"),
    ),
    (
        "logo.svg",
        "image/svg+xml",
        include_bytes!("assets/logo.svg"),
    ),
];

/// The asset called `name`, or `None`.
pub fn get(name: &str) -> Option<Answer> {
    ASSETS
        .iter()
        .find(|(n, _, _)| *n == name)
        .map(|(_, content_type, bytes)| Answer::new(200, content_type, bytes.to_vec()))
}
