//! Prometheus metrics, served as text on the admin listener at `/metrics`.

use prometheus::{
    Encoder, HistogramOpts, HistogramVec, IntCounterVec, Opts, Registry, TextEncoder,
};

pub struct Metrics {
    registry: Registry,
    requests: IntCounterVec,
    latency: HistogramVec,
    tokens_original: IntCounterVec,
    tokens_saved: IntCounterVec,
}

impl Metrics {
    pub fn new() -> Metrics {
        let registry = Registry::new_custom(Some("terse".into()), None)
            .expect("a static prefix is a valid registry");
        let requests = IntCounterVec::new(
            Opts::new("requests_total", "Requests answered, by route and status"),
            &["route", "status"],
        )
        .expect("static metric definition");
        let latency = HistogramVec::new(
            HistogramOpts::new(
                "request_duration_seconds",
                "Time from request header to response, by route",
            )
            .buckets(vec![
                0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5,
                1.0, 2.5, 5.0,
            ]),
            &["route"],
        )
        .expect("static metric definition");
        let tokens_original = IntCounterVec::new(
            Opts::new(
                "tokens_original_total",
                "Tokens received before compression",
            ),
            &["route"],
        )
        .expect("static metric definition");
        let tokens_saved = IntCounterVec::new(
            Opts::new("tokens_saved_total", "Tokens removed by compression"),
            &["route"],
        )
        .expect("static metric definition");
        for collector in [
            Box::new(requests.clone()) as Box<dyn prometheus::core::Collector>,
            Box::new(latency.clone()),
            Box::new(tokens_original.clone()),
            Box::new(tokens_saved.clone()),
        ] {
            registry
                .register(collector)
                .expect("each metric is registered once");
        }
        Metrics {
            registry,
            requests,
            latency,
            tokens_original,
            tokens_saved,
        }
    }

    pub fn observe_request(&self, route: &str, status: u16, seconds: f64) {
        self.requests
            .with_label_values(&[route, &status.to_string()])
            .inc();
        self.latency.with_label_values(&[route]).observe(seconds);
    }

    pub fn observe_tokens(&self, route: &str, original: u64, saved: u64) {
        self.tokens_original
            .with_label_values(&[route])
            .inc_by(original);
        self.tokens_saved.with_label_values(&[route]).inc_by(saved);
    }

    /// The Prometheus text exposition of every metric.
    pub fn render(&self) -> String {
        let mut out = Vec::new();
        if let Err(err) = TextEncoder::new().encode(&self.registry.gather(), &mut out) {
            tracing::error!(error = %err, "metrics encoding failed");
        }
        String::from_utf8(out).unwrap_or_default()
    }
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn observed_values_are_rendered() {
        let metrics = Metrics::new();
        metrics.observe_request("compress", 200, 0.002);
        metrics.observe_tokens("compress", 100, 40);
        let text = metrics.render();
        assert!(
            text.contains(r#"terse_requests_total{route="compress",status="200"} 1"#),
            "{text}"
        );
        assert!(
            text.contains(r#"terse_tokens_saved_total{route="compress"} 40"#),
            "{text}"
        );
        assert!(
            text.contains("terse_request_duration_seconds_bucket"),
            "{text}"
        );
    }
}
