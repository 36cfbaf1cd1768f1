//! Admin usage routes: every key together, or one key, over a span of UTC days.

use super::{AdminReply, bad_request, internal};
use crate::app::App;
use crate::clock;
use crate::error::{ApiError, ServiceError};
use serde_json::json;

/// `[from, to)` in Unix seconds from `?from=YYYY-MM-DD&to=YYYY-MM-DD` (inclusive days);
/// the current calendar month when absent.
pub fn span(query: &str, now: i64) -> Result<(i64, i64), String> {
    let mut from = clock::month_start(now);
    let mut to = clock::next_month_start(now);
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        match name {
            "from" => from = parse_day(value)?,
            "to" => to = parse_day(value)? + clock::DAY,
            _ => return Err(format!("unknown query parameter {name:?}")),
        }
    }
    if from >= to {
        return Err("from must not be after to".into());
    }
    Ok((from, to))
}

fn parse_day(text: &str) -> Result<i64, String> {
    let bad = || format!("{text:?} is not a date such as 2026-01-31");
    let mut parts = text.splitn(3, '-');
    let mut next = || {
        parts
            .next()
            .and_then(|p| p.parse::<i64>().ok())
            .ok_or_else(bad)
    };
    let (y, m, d) = (next()?, next()?, next()?);
    if !(1970..=9999).contains(&y) || !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return Err(bad());
    }
    // Round-trip through the calendar so 2026-02-30 is refused rather than rolled over.
    let start = clock::days_from_civil(y, m as u32, d as u32) * clock::DAY;
    if clock::day_label(start) != format!("{y:04}-{m:02}-{d:02}") {
        return Err(bad());
    }
    Ok(start)
}

pub async fn for_all(app: &App, query: &str) -> AdminReply {
    let (from, to) = match span(query, clock::now()) {
        Ok(span) => span,
        Err(why) => return bad_request(why),
    };
    let report = match app.store.usage_report(None, from, to).await {
        Ok(report) => report,
        Err(err) => return internal(err),
    };
    let by_key = match app.store.usage_by_key(from, to).await {
        Ok(rows) => rows,
        Err(err) => return internal(err),
    };
    (
        200,
        json!({
            "success": true,
            "from": clock::day_label(from),
            "to": clock::day_label(to - 1),
            "totals": report.totals,
            "daily": report.daily,
            "topModels": report.top_models,
            "byKey": by_key,
        }),
    )
}

pub async fn for_key(app: &App, id: &str, query: &str) -> AdminReply {
    let (from, to) = match span(query, clock::now()) {
        Ok(span) => span,
        Err(why) => return bad_request(why),
    };
    match app.store.key_by_id(id).await {
        Ok(Some(_)) => {}
        Ok(None) => return super::error_reply(ServiceError::Api(ApiError::NotFound)),
        Err(err) => return internal(err),
    }
    match app.store.usage_report(Some(id), from, to).await {
        Ok(report) => (
            200,
            json!({
                "success": true,
                "keyId": id,
                "from": clock::day_label(from),
                "to": clock::day_label(to - 1),
                "totals": report.totals,
                "daily": report.daily,
                "topModels": report.top_models,
            }),
        ),
        Err(err) => internal(err),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_default_to_the_month_and_parse_days() {
        let now = 1_709_208_000; // 2024-02-29T12:00Z
        assert_eq!(span("", now).unwrap(), (1_706_745_600, 1_709_251_200));
        let (from, to) = span("from=2024-02-01&to=2024-02-01", now).unwrap();
        assert_eq!((from, to - from), (1_706_745_600, clock::DAY));
        assert!(span("from=2024-02-30", now).is_err());
        assert!(span("from=2024-03-01&to=2024-02-01", now).is_err());
        assert!(span("color=red", now).is_err());
    }
}
