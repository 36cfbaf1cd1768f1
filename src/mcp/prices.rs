//! The prices that turn this session's tokens saved into US dollars.
//!
//! The tool server uses the service's own price table (`conf/prices.yaml`, read by
//! `proxy::prices`), so its USD figures agree with the usage the service records. The
//! assistant's model is unknown to the tool server, so one model prices the whole session:
//! SERVICE_PRICE_MODEL, else `DEFAULT_PRICE_MODEL`.

use crate::proxy::prices::{ModelPrice, PriceTable};

/// The model that prices a session when SERVICE_PRICE_MODEL is unset.
pub const DEFAULT_PRICE_MODEL: &str = "claude-sonnet-4";

/// The model that prices this session, with the table entry that matched it.
#[derive(Clone, Debug)]
pub struct SessionPrice {
    pub model: String,
    pub price: ModelPrice,
}

impl SessionPrice {
    /// USD per million input tokens.
    pub fn input_usd_per_mtok(&self) -> f64 {
        self.price.input
    }

    /// USD per million output tokens.
    pub fn output_usd_per_mtok(&self) -> f64 {
        self.price.output
    }

    pub fn input_usd(&self, tokens: f64) -> f64 {
        tokens * self.price.input / 1_000_000.0
    }

    pub fn output_usd(&self, tokens: f64) -> f64 {
        tokens * self.price.output / 1_000_000.0
    }
}

/// The table in the file SERVICE_PRICES names (format of `conf/prices.yaml`), else the one
/// embedded in the binary.
pub fn load_table(path: Option<&str>) -> Result<PriceTable, String> {
    match path {
        None => PriceTable::embedded().map_err(|err| format!("the embedded price table: {err}")),
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|err| {
                format!("SERVICE_PRICES: cannot read the price table {path}: {err}")
            })?;
            PriceTable::parse(&text).map_err(|err| format!("SERVICE_PRICES ({path}): {err}"))
        }
    }
}

/// The prices of `model` (SERVICE_PRICE_MODEL), else of `DEFAULT_PRICE_MODEL`; a model no entry
/// of the table matches is an error that lists the entries.
pub fn session_price(table: &PriceTable, model: Option<&str>) -> Result<SessionPrice, String> {
    let (name, from) = match model {
        Some(name) => (name, "SERVICE_PRICE_MODEL"),
        None => (DEFAULT_PRICE_MODEL, "the default price model"),
    };
    let Some(price) = table.price(name) else {
        let patterns: Vec<&str> = table.models.iter().map(|m| m.model.as_str()).collect();
        return Err(format!(
            "{from} {name:?} matches no model of the price table: expected a name matching one of {}",
            patterns.join(", ")
        ));
    };
    // The table only refuses negative prices; an infinite one would turn every figure into null.
    if !(price.input.is_finite() && price.output.is_finite()) {
        return Err(format!(
            "the price table: the prices of {:?} must be finite numbers",
            price.model
        ));
    }
    Ok(SessionPrice {
        model: name.to_string(),
        price: price.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_table_prices_the_default_model() {
        let table = load_table(None).unwrap();
        let session = session_price(&table, None).unwrap();
        assert_eq!(session.model, DEFAULT_PRICE_MODEL);
        let entry = table.price(DEFAULT_PRICE_MODEL).unwrap();
        assert_eq!(session.input_usd_per_mtok(), entry.input);
        assert_eq!(session.output_usd_per_mtok(), entry.output);
        assert!(session.input_usd_per_mtok() > 0.0);
        let usd = session.input_usd(1_000_000.0);
        assert!((usd - session.input_usd_per_mtok()).abs() < 1e-12);
    }

    #[test]
    fn a_chosen_model_is_priced_by_the_services_first_matching_entry() {
        let table = load_table(None).unwrap();
        let session = session_price(&table, Some("gpt-4o-mini-2024-07-18")).unwrap();
        assert_eq!(session.model, "gpt-4o-mini-2024-07-18");
        assert_eq!(session.price.model, "gpt-4o-mini*");
        assert_eq!(
            session.input_usd_per_mtok(),
            table.price("gpt-4o-mini").unwrap().input
        );
    }

    #[test]
    fn an_unknown_model_lists_the_known_ones() {
        let table = load_table(None).unwrap();
        let err = session_price(&table, Some("gpt-9")).unwrap_err();
        assert!(err.starts_with("SERVICE_PRICE_MODEL \"gpt-9\""), "{err}");
        assert!(err.contains("gpt-4o*"), "{err}");
    }

    #[test]
    fn a_table_without_the_default_model_needs_service_price_model() {
        let table =
            PriceTable::parse("as_of: x\nmodels:\n  - { model: a*, input: 1, output: 2 }\n")
                .unwrap();
        let err = session_price(&table, None).unwrap_err();
        assert!(err.contains(DEFAULT_PRICE_MODEL), "{err}");
        assert_eq!(
            session_price(&table, Some("abc"))
                .unwrap()
                .output_usd_per_mtok(),
            2.0
        );
    }

    /// Loads `yaml` as a SERVICE_PRICES file.
    fn load_file(yaml: &str) -> Result<PriceTable, String> {
        let file = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(file.path(), yaml).unwrap();
        load_table(Some(file.path().to_str().unwrap()))
    }

    #[test]
    fn bad_tables_are_rejected_with_their_origin() {
        let err =
            load_file("as_of: x\nmodels:\n  - { model: m, input: -1, output: 1 }\n").unwrap_err();
        assert!(err.starts_with("SERVICE_PRICES ("), "{err}");
        assert!(err.contains("non-negative"), "{err}");
        let old_format =
            "default_model: m\nmodels:\n  m: {input_usd_per_mtok: 1, output_usd_per_mtok: 1}\n";
        let err = load_file(old_format).unwrap_err();
        assert!(err.contains("invalid price table"), "{err}");
        let infinite =
            load_file("as_of: x\nmodels:\n  - { model: m, input: .inf, output: 1 }\n").unwrap();
        let err = session_price(&infinite, Some("m")).unwrap_err();
        assert!(err.contains("finite"), "{err}");
        let err = load_table(Some("/nonexistent/prices.yaml")).unwrap_err();
        assert!(err.starts_with("SERVICE_PRICES"), "{err}");
    }
}
