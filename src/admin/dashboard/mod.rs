//! The web dashboard: sign-in and sign-out, the pages (keys, usage, playground) and their
//! embedded assets. Every page is a static shell whose scripts (`script-src 'self'`, no inline
//! code) call the admin JSON API with the session cookie and the page's CSRF token.
//!
//! | Method and path          | What                                                      |
//! |--------------------------|-----------------------------------------------------------|
//! | `GET /`                  | to `/keys` when signed in, else to `/login`               |
//! | `GET /login`             | the sign-in form                                          |
//! | `POST /login`            | form field `token`; sets the session cookie               |
//! | `POST /logout`           | form field `csrf`; ends the session                       |
//! | `GET /keys`, `/usage`, `/playground` | the pages (to `/login` when signed out)       |
//! | `GET /assets/{name}`     | CSS, scripts, icon                                        |

mod assets;
pub mod form;

use super::Answer;
use super::session::{self, Sessions};
use crate::app::App;
use crate::body;
use crate::keys;
use http::{HeaderMap, Method};
use pingora::protocols::http::ServerSession;
use std::time::Duration;
use subtle::ConstantTimeEq;

const LOGIN_HTML: &str = include_str!("assets/login.html");
const APP_HTML: &str = include_str!("assets/app.html");

/// Largest sign-in or sign-out form body.
const FORM_CAP: usize = 4096;
/// A wrong token waits this long before the answer, which slows guessing.
const FAILED_SIGN_IN_DELAY: Duration = Duration::from_millis(300);

/// The pages of the signed-in dashboard: path and title.
const PAGES: [(&str, &str); 3] = [
    ("/keys", "API keys"),
    ("/usage", "Usage & savings"),
    ("/playground", "Playground"),
];

/// The answer for a dashboard path, or `None` when `path` is not one.
pub async fn serve(
    app: &App,
    sessions: &Sessions,
    session: &mut ServerSession,
    method: &Method,
    path: &str,
) -> Option<Answer> {
    let headers = &session.req_header().headers;
    let signed_in = sessions.find(headers);
    let answer = match (method, path) {
        (&Method::GET, "/") => Answer::redirect(if signed_in.is_some() {
            "/keys"
        } else {
            "/login"
        }),
        (&Method::GET, "/login") => match signed_in {
            Some(_) => Answer::redirect("/keys"),
            None => login_page(200, None),
        },
        (&Method::POST, "/login") => sign_in(app, sessions, session).await,
        (&Method::POST, "/logout") => sign_out(sessions, session).await,
        (&Method::GET, _) if path.starts_with("/assets/") => assets::get(&path[8..])?,
        (&Method::GET, _) => {
            let (_, title) = PAGES.iter().find(|(p, _)| *p == path)?;
            match signed_in {
                Some(found) => page(path, title, &found.csrf),
                None => Answer::redirect("/login"),
            }
        }
        _ => return None,
    };
    Some(answer)
}

fn login_page(status: u16, error: Option<&str>) -> Answer {
    let alert = error
        .map(|message| {
            format!(
                "<p class=\"alert alert-error\" role=\"alert\" id=\"login-error\">{}</p>",
                escape(message)
            )
        })
        .unwrap_or_default();
    Answer::html(status, LOGIN_HTML.replace("{{alert}}", &alert))
}

fn page(path: &str, title: &str, csrf: &str) -> Answer {
    let html = APP_HTML
        .replace("{{title}}", title)
        .replace("{{page}}", path.trim_start_matches('/'))
        .replace("{{csrf}}", csrf);
    Answer::html(200, html)
}

/// Whether a form post comes from a page of this origin: browsers send `Origin` (and
/// `Sec-Fetch-Site`) with every POST, so a cross-site form is refused even before the cookie's
/// `SameSite=Strict` and the CSRF token are checked.
fn same_origin(headers: &HeaderMap) -> bool {
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    if let Some(site) = header("sec-fetch-site")
        && site != "same-origin"
        && site != "none"
    {
        return false;
    }
    match (header("origin"), header("host")) {
        (None, _) => true,
        (Some(origin), Some(host)) => {
            origin == format!("http://{host}") || origin == format!("https://{host}")
        }
        (Some(_), None) => false,
    }
}

async fn read_form(session: &mut ServerSession) -> Result<bytes::Bytes, Answer> {
    let declared = session
        .get_header(http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if !declared
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .eq_ignore_ascii_case("application/x-www-form-urlencoded")
    {
        return Err(Answer::text(
            415,
            "send the form as application/x-www-form-urlencoded",
        ));
    }
    body::read_capped(session, FORM_CAP)
        .await
        .map_err(|_| Answer::text(413, "the form is too large"))
}

async fn sign_in(app: &App, sessions: &Sessions, session: &mut ServerSession) -> Answer {
    if !same_origin(&session.req_header().headers) {
        return login_page(
            403,
            Some("This sign-in did not come from the dashboard's own page."),
        );
    }
    let raw = match read_form(session).await {
        Ok(raw) => raw,
        Err(answer) => return answer,
    };
    let token = form::field(&raw, "token").unwrap_or_default();
    if token.trim().is_empty() {
        return login_page(400, Some("Enter the admin token."));
    }
    let valid: bool = keys::hash(token.trim())
        .as_bytes()
        .ct_eq(app.admin_token_hash.as_bytes())
        .into();
    if !valid {
        tracing::warn!(
            listener = "admin",
            "dashboard sign-in refused: wrong admin token"
        );
        tokio::time::sleep(FAILED_SIGN_IN_DELAY).await;
        return login_page(
            401,
            Some(
                "That admin token is not valid. Use the value of SERVICE_ADMIN_TOKEN (or admin.token), or the token printed on first start.",
            ),
        );
    }
    tracing::info!(listener = "admin", "dashboard sign-in");
    Answer::redirect("/keys").with_header("Set-Cookie", sessions.create())
}

async fn sign_out(sessions: &Sessions, session: &mut ServerSession) -> Answer {
    if !same_origin(&session.req_header().headers) {
        return Answer::text(403, "cross-site sign-out refused");
    }
    let Some(current) = sessions.find(&session.req_header().headers) else {
        return Answer::redirect("/login");
    };
    let raw = match read_form(session).await {
        Ok(raw) => raw,
        Err(answer) => return answer,
    };
    if !session::csrf_matches(&current, form::field(&raw, "csrf").as_deref()) {
        return Answer::text(403, "the CSRF token is missing or wrong");
    }
    let cleared = sessions.end(&session.req_header().headers);
    Answer::redirect("/login").with_header("Set-Cookie", cleared)
}

/// Escapes text for an HTML element body or attribute.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(*name, value.parse().unwrap());
        }
        map
    }

    #[test]
    fn only_same_origin_posts_pass() {
        assert!(same_origin(&headers(&[("host", "127.0.0.1:8081")])));
        assert!(same_origin(&headers(&[
            ("host", "127.0.0.1:8081"),
            ("origin", "http://127.0.0.1:8081"),
            ("sec-fetch-site", "same-origin"),
        ])));
        assert!(!same_origin(&headers(&[
            ("host", "127.0.0.1:8081"),
            ("origin", "http://evil.example"),
        ])));
        assert!(!same_origin(&headers(&[
            ("host", "127.0.0.1:8081"),
            ("sec-fetch-site", "cross-site"),
        ])));
    }

    #[test]
    fn pages_fill_their_placeholders_and_escape_errors() {
        let answer = page("/usage", "Usage & savings", "c5rf");
        let html = String::from_utf8(answer.body).unwrap();
        assert!(html.contains("data-page=\"usage\"") && html.contains("c5rf"));
        assert!(!html.contains("{{"));
        let login = login_page(401, Some("<b>no</b>"));
        let html = String::from_utf8(login.body).unwrap();
        assert!(html.contains("&lt;b&gt;no&lt;/b&gt;") && !html.contains("{{"));
    }
}
