//! The price table that turns tokens saved into US dollars.
//!
//! The assistant's model is unknown to the tool server, so one model of the table prices the whole
//! session: SERVICE_PRICE_MODEL, else the table's `default_model`.

use serde::Deserialize;
use std::collections::BTreeMap;

/// The embedded default table (same shape as a SERVICE_PRICES file).
const DEFAULT_TABLE: &str = include_str!("default_prices.yaml");

#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PriceTable {
    pub default_model: String,
    pub models: BTreeMap<String, ModelPrice>,
}

/// USD per million tokens of one model.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelPrice {
    pub input_usd_per_mtok: f64,
    pub output_usd_per_mtok: f64,
}

/// The model that prices this session, with its prices.
#[derive(Clone, Debug, PartialEq)]
pub struct SessionPrice {
    pub model: String,
    pub price: ModelPrice,
}

impl ModelPrice {
    pub fn input_usd(&self, tokens: f64) -> f64 {
        tokens * self.input_usd_per_mtok / 1_000_000.0
    }

    pub fn output_usd(&self, tokens: f64) -> f64 {
        tokens * self.output_usd_per_mtok / 1_000_000.0
    }
}

impl PriceTable {
    /// Parses a table; `origin` names it in the error.
    pub fn parse(yaml: &str, origin: &str) -> Result<Self, String> {
        let table: PriceTable = serde_saphyr::from_str(yaml)
            .map_err(|err| format!("the price table {origin} is not valid: {err}"))?;
        for (model, price) in &table.models {
            let valid = |usd: f64| usd.is_finite() && usd >= 0.0;
            if !valid(price.input_usd_per_mtok) || !valid(price.output_usd_per_mtok) {
                return Err(format!(
                    "the price table {origin}: the prices of {model} must be numbers >= 0"
                ));
            }
        }
        Ok(table)
    }

    /// The table in SERVICE_PRICES when given, else the embedded default.
    pub fn load(path: Option<&str>) -> Result<Self, String> {
        match path {
            None => Self::parse(DEFAULT_TABLE, "embedded in terse"),
            Some(path) => {
                let text = std::fs::read_to_string(path).map_err(|err| {
                    format!("SERVICE_PRICES: cannot read the price table {path}: {err}")
                })?;
                Self::parse(&text, &format!("in SERVICE_PRICES ({path})"))
            }
        }
    }

    /// The prices of `model`, else of the table's default model.
    pub fn for_session(&self, model: Option<&str>) -> Result<SessionPrice, String> {
        let (name, from) = match model {
            Some(name) => (name, "SERVICE_PRICE_MODEL"),
            None => (
                self.default_model.as_str(),
                "the price table's default_model",
            ),
        };
        match self.models.get(name) {
            Some(price) => Ok(SessionPrice {
                model: name.to_string(),
                price: *price,
            }),
            None => Err(format!(
                "{from} {name:?} is not in the price table: expected one of {}",
                self.models.keys().cloned().collect::<Vec<_>>().join(", ")
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_table_prices_its_default_model() {
        let table = PriceTable::load(None).unwrap();
        let session = table.for_session(None).unwrap();
        assert_eq!(session.model, table.default_model);
        assert!(session.price.input_usd_per_mtok > 0.0);
        let usd = session.price.input_usd(1_000_000.0);
        assert!((usd - session.price.input_usd_per_mtok).abs() < 1e-12);
    }

    #[test]
    fn an_unknown_model_lists_the_known_ones() {
        let table = PriceTable::load(None).unwrap();
        let err = table.for_session(Some("gpt-9")).unwrap_err();
        assert!(err.starts_with("SERVICE_PRICE_MODEL \"gpt-9\""), "{err}");
        assert!(err.contains("gpt-4o"), "{err}");
    }

    #[test]
    fn bad_tables_are_rejected_with_their_origin() {
        let negative =
            "default_model: m\nmodels:\n  m: {input_usd_per_mtok: -1, output_usd_per_mtok: 1}\n";
        assert!(
            PriceTable::parse(negative, "t")
                .unwrap_err()
                .contains("must be numbers")
        );
        let typo = "default_model: m\nmodels:\n  m: {input: 1, output_usd_per_mtok: 1}\n";
        assert!(
            PriceTable::parse(typo, "t")
                .unwrap_err()
                .starts_with("the price table t")
        );
        let err = PriceTable::load(Some("/nonexistent/prices.yaml")).unwrap_err();
        assert!(err.starts_with("SERVICE_PRICES"), "{err}");
    }
}
