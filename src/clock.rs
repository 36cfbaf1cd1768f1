//! Wall-clock helpers in UTC: the hour buckets of usage, calendar months of quotas, day labels.
//! Unix seconds throughout; the civil-date conversion is Howard Hinnant's `civil_from_days`.

use std::time::{SystemTime, UNIX_EPOCH};

pub const HOUR: i64 = 3600;
pub const DAY: i64 = 86_400;

/// Seconds since the Unix epoch, now.
pub fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

/// The start of the UTC hour holding `ts`.
pub fn hour_floor(ts: i64) -> i64 {
    ts.div_euclid(HOUR) * HOUR
}

/// (year, month 1..=12, day 1..=31) of the UTC day holding `ts`.
pub fn civil(ts: i64) -> (i64, u32, u32) {
    civil_from_days(ts.div_euclid(DAY))
}

/// `YYYY-MM-DD` of the UTC day holding `ts`.
pub fn day_label(ts: i64) -> String {
    let (y, m, d) = civil(ts);
    format!("{y:04}-{m:02}-{d:02}")
}

/// `YYYY-MM` of the UTC month holding `ts`.
pub fn month_label(ts: i64) -> String {
    let (y, m, _) = civil(ts);
    format!("{y:04}-{m:02}")
}

/// The first second of the UTC calendar month holding `ts`.
pub fn month_start(ts: i64) -> i64 {
    let (y, m, _) = civil(ts);
    days_from_civil(y, m, 1) * DAY
}

/// The first second of the UTC calendar month after the one holding `ts`.
pub fn next_month_start(ts: i64) -> i64 {
    let (y, m, _) = civil(ts);
    let (y, m) = if m == 12 { (y + 1, 1) } else { (y, m + 1) };
    days_from_civil(y, m, 1) * DAY
}

fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

pub fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let m = i64::from(m);
    let mp = if m > 2 { m - 3 } else { m + 9 };
    let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_dates() {
        assert_eq!(day_label(0), "1970-01-01");
        // 2024-02-29T12:00:00Z, a leap day.
        assert_eq!(day_label(1_709_208_000), "2024-02-29");
        assert_eq!(month_start(1_709_208_000), 1_706_745_600); // 2024-02-01
        assert_eq!(next_month_start(1_709_208_000), 1_709_251_200); // 2024-03-01
        // December rolls into January of the next year.
        assert_eq!(next_month_start(1_703_980_800), 1_704_067_200); // 2023-12-31 → 2024-01-01
        assert_eq!(month_label(1_704_067_200), "2024-01");
        assert_eq!(hour_floor(3_725), 3_600);
    }

    #[test]
    fn days_round_trip() {
        for days in (-800_000..800_000).step_by(997) {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days);
        }
    }
}
