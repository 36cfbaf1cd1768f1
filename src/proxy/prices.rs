//! The per-model price table (`conf/prices.yaml`): USD saved from tokens saved.

use super::route::glob_matches;
use serde::Deserialize;

/// The table compiled into the binary.
pub const EMBEDDED_PRICES: &str = include_str!("../../conf/prices.yaml");

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PriceTable {
    /// The date of the price snapshot.
    pub as_of: String,
    pub models: Vec<ModelPrice>,
}

/// USD per million tokens for the models matching a glob.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelPrice {
    pub model: String,
    pub input: f64,
    pub output: f64,
}

impl PriceTable {
    /// Parses a price table; the error names the line and column.
    pub fn parse(source: &str) -> Result<PriceTable, String> {
        let table: PriceTable =
            serde_saphyr::from_str(source).map_err(|err| format!("invalid price table: {err}"))?;
        if let Some(bad) = table
            .models
            .iter()
            .find(|m| !(m.input >= 0.0 && m.output >= 0.0))
        {
            return Err(format!("price of {:?} must be non-negative", bad.model));
        }
        Ok(table)
    }

    pub fn embedded() -> Result<PriceTable, String> {
        Self::parse(EMBEDDED_PRICES)
    }

    /// The price of `model` (aggregator `vendor/` prefix ignored): the first matching entry.
    pub fn price(&self, model: &str) -> Option<&ModelPrice> {
        let name = model.rsplit('/').next().unwrap_or(model);
        self.models.iter().find(|m| glob_matches(&m.model, name))
    }

    /// USD saved by `input_saved` input tokens (may be negative) and `output_saved` output
    /// tokens on `model`; 0 for a model without a price.
    pub fn usd_saved(&self, model: Option<&str>, input_saved: i64, output_saved: u64) -> f64 {
        let Some(price) = model.and_then(|m| self.price(m)) else {
            return 0.0;
        };
        (input_saved as f64 * price.input + output_saved as f64 * price.output) / 1_000_000.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_table_parses_and_specific_names_win() {
        let table = PriceTable::embedded().unwrap();
        assert_eq!(table.as_of, "2025-11-01");
        assert_eq!(table.price("gpt-4o-mini-2024-07-18").unwrap().input, 0.15);
        assert_eq!(table.price("openai/gpt-4o").unwrap().input, 2.50);
        assert_eq!(table.price("claude-3-5-haiku-latest").unwrap().output, 4.00);
        assert!(table.price("mistral-large").is_none());
        let usd = table.usd_saved(Some("gpt-4o"), 1_000_000, 100_000);
        assert!((usd - 3.5).abs() < 1e-9);
        assert_eq!(table.usd_saved(Some("unknown-model"), 1000, 1000), 0.0);
    }

    #[test]
    fn a_negative_price_is_refused() {
        let bad = "as_of: x\nmodels:\n  - { model: a, input: -1, output: 1 }\n";
        assert!(PriceTable::parse(bad).is_err());
    }
}
