//! The figures of `terse eval`: one row per corpus and mode, from the outcome of each prompt.

use serde::Serialize;

/// What one compression of one prompt gave.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Outcome {
    /// Percent of the original tokens saved (0 for an empty prompt).
    pub reduction: f64,
    /// Distinct guard items of the input, and how many of them are in the output.
    pub guard_items: usize,
    pub guard_kept: usize,
    /// The guard items missing from the output.
    pub lost: Vec<String>,
    pub integrity_passed: bool,
    pub latency_ms: f64,
    /// The most any compressor could save without dropping a vault or guard item: percent of
    /// the original tokens not taken by those items alone, joined by spaces. A loose bound:
    /// the kept items still need words around them to say anything.
    pub ceiling: f64,
}

/// One line of the table.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Row {
    pub corpus: String,
    pub mode: String,
    pub prompts: usize,
    pub median_reduction: f64,
    pub p10_reduction: f64,
    pub p90_reduction: f64,
    /// Median of the per-prompt ceilings (see [`Outcome::ceiling`]).
    pub median_ceiling: f64,
    pub guard_items: usize,
    pub guard_kept: usize,
    /// Percent of the distinct guard items kept; 100 when there were none.
    pub guard_retention: f64,
    /// Prompts that lost at least one guard item.
    pub prompts_missing_guard_items: usize,
    pub integrity_failures: usize,
    pub mean_latency_ms: f64,
    /// Prompts cut to the 50,000-character limit before compressing.
    pub truncated: usize,
}

impl Row {
    pub fn new(corpus: &str, mode: &str, outcomes: &[&Outcome], truncated: usize) -> Row {
        let mut reductions: Vec<f64> = outcomes.iter().map(|o| o.reduction).collect();
        reductions.sort_by(f64::total_cmp);
        let mut ceilings: Vec<f64> = outcomes.iter().map(|o| o.ceiling).collect();
        ceilings.sort_by(f64::total_cmp);
        let guard_items = outcomes.iter().map(|o| o.guard_items).sum();
        let guard_kept = outcomes.iter().map(|o| o.guard_kept).sum();
        let latency: f64 = outcomes.iter().map(|o| o.latency_ms).sum();
        Row {
            corpus: corpus.to_string(),
            mode: mode.to_string(),
            prompts: outcomes.len(),
            median_reduction: percentile(&reductions, 0.5),
            p10_reduction: percentile(&reductions, 0.1),
            p90_reduction: percentile(&reductions, 0.9),
            median_ceiling: percentile(&ceilings, 0.5),
            guard_items,
            guard_kept,
            guard_retention: if guard_items == 0 {
                100.0
            } else {
                guard_kept as f64 * 100.0 / guard_items as f64
            },
            prompts_missing_guard_items: outcomes
                .iter()
                .filter(|o| o.guard_kept < o.guard_items)
                .count(),
            integrity_failures: outcomes.iter().filter(|o| !o.integrity_passed).count(),
            mean_latency_ms: if outcomes.is_empty() {
                0.0
            } else {
                latency / outcomes.len() as f64
            },
            truncated,
        }
    }
}

/// The `q`-quantile (0..=1) of sorted values, interpolated linearly between the two nearest
/// ranks (numpy's default); 0 for no values.
pub fn percentile(sorted: &[f64], q: f64) -> f64 {
    match sorted.len() {
        0 => 0.0,
        n => {
            let rank = q.clamp(0.0, 1.0) * (n - 1) as f64;
            let (low, high) = (rank.floor() as usize, rank.ceil() as usize);
            sorted[low] + (sorted[high] - sorted[low]) * (rank - low as f64)
        }
    }
}

/// A guard item cut to a readable length for a report line.
pub fn shorten(item: &str) -> String {
    const LIMIT: usize = 60;
    match item.char_indices().nth(LIMIT) {
        Some((cut, _)) => format!("{}...", &item[..cut]),
        None => item.to_string(),
    }
}

/// The rows as a markdown table.
pub fn markdown(rows: &[Row]) -> String {
    let mut table = String::from(
        "| corpus | mode | prompts | median | p10 | p90 | ceiling (median) | guard items kept | prompts losing guard items | integrity failures | mean latency |\n\
         |---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for row in rows {
        table.push_str(&format!(
            "| {} | {} | {} | {:.1}% | {:.1}% | {:.1}% | {:.1}% | {:.2}% ({}/{}) | {} | {} | {:.3} ms |\n",
            row.corpus,
            row.mode,
            row.prompts,
            row.median_reduction,
            row.p10_reduction,
            row.p90_reduction,
            row.median_ceiling,
            row.guard_retention,
            row.guard_kept,
            row.guard_items,
            row.prompts_missing_guard_items,
            row.integrity_failures,
            row.mean_latency_ms,
        ));
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_interpolate_between_ranks() {
        let values = [0.0, 10.0, 20.0, 30.0, 40.0];
        assert_eq!(percentile(&values, 0.5), 20.0);
        assert_eq!(percentile(&values, 0.1), 4.0);
        assert_eq!(percentile(&values, 0.9), 36.0);
        assert_eq!(percentile(&values, 0.0), 0.0);
        assert_eq!(percentile(&values, 1.0), 40.0);
        assert_eq!(percentile(&[7.0], 0.1), 7.0);
        assert_eq!(percentile(&[], 0.5), 0.0);
    }

    #[test]
    fn a_row_adds_up_its_outcomes() {
        let outcomes = [
            Outcome {
                reduction: 30.0,
                guard_items: 4,
                guard_kept: 4,
                lost: Vec::new(),
                integrity_passed: true,
                latency_ms: 1.0,
                ceiling: 60.0,
            },
            Outcome {
                reduction: 10.0,
                guard_items: 6,
                guard_kept: 5,
                lost: vec!["v2.1".to_string()],
                integrity_passed: false,
                latency_ms: 3.0,
                ceiling: 40.0,
            },
            Outcome {
                reduction: 20.0,
                integrity_passed: true,
                ..Outcome::default()
            },
        ];
        let refs: Vec<&Outcome> = outcomes.iter().collect();
        let row = Row::new("c", "balanced", &refs, 2);
        assert_eq!(row.prompts, 3);
        assert_eq!(row.median_reduction, 20.0);
        assert_eq!(row.p10_reduction, 12.0);
        assert_eq!(row.p90_reduction, 28.0);
        assert_eq!(row.median_ceiling, 40.0);
        assert_eq!((row.guard_kept, row.guard_items), (9, 10));
        assert_eq!(row.guard_retention, 90.0);
        assert_eq!(row.prompts_missing_guard_items, 1);
        assert_eq!(row.integrity_failures, 1);
        assert!((row.mean_latency_ms - 4.0 / 3.0).abs() < 1e-9);
        assert_eq!(row.truncated, 2);
        let table = markdown(&[row]);
        assert!(
            table.contains(
                "| c | balanced | 3 | 20.0% | 12.0% | 28.0% | 40.0% | 90.00% (9/10) | 1 | 1 | 1.333 ms |"
            ),
            "{table}"
        );
    }

    #[test]
    fn no_guard_items_is_full_retention() {
        let outcome = Outcome {
            integrity_passed: true,
            ..Outcome::default()
        };
        let row = Row::new("c", "aggressive", &[&outcome], 0);
        assert_eq!(row.guard_retention, 100.0);
        assert_eq!(row.prompts_missing_guard_items, 0);
    }
}
