//! Indentation is structure: an indented code block comes back as written, and an indented line
//! of text keeps its indentation in every mode (YAML's nesting, an outline, a prompt's sections
//! set in under their tags), while its words are compressed like any other text.

use filters::{Mode, Options, compress};

const MODES: [Mode; 3] = [Mode::Conservative, Mode::Balanced, Mode::Aggressive];

fn compressed(text: &str, mode: Mode) -> String {
    compress(text, &Options::with_mode(mode)).text
}

#[test]
fn an_indented_code_block_comes_back_as_written() {
    let code = "    def total(items):\n        # add up the prices of the items\n        if items is None or not items:\n            return 0\n\n        return sum(item.price for item in items)\n";
    let text = format!(
        "Please find the bug in this function and explain the fix.\n\n{code}\nThank you very much.\n"
    );
    for mode in MODES {
        let out = compressed(&text, mode);
        assert!(out.contains(code), "{mode:?}: {out:?}");
    }
}

#[test]
fn yaml_keeps_its_nesting() {
    let text = "Use this configuration for the service:\n\nserver:\n  port: 8080\n  tls:\n    enabled: true\n    cert: the certificate file\nlimits:\n  rpm: 60\n";
    for mode in MODES {
        let out = compressed(text, mode);
        for line in [
            "server:",
            "  port: 8080",
            "  tls:",
            "    enabled: true",
            "limits:",
            "  rpm: 60",
        ] {
            assert!(
                out.lines().any(|l| l == line),
                "{mode:?}: {line:?} in {out:?}"
            );
        }
        assert!(
            out.lines().any(|l| l.starts_with("    cert: ")),
            "{mode:?}: {out:?}"
        );
    }
}

#[test]
fn indented_prose_is_compressed_and_keeps_its_indentation() {
    // A section set in under its tag reads as sentences: it is text, not a code block.
    let text = "<system_role>\n\n    You are now acting as the compliance officer for the team.\n    Please review the conversation history and the planned next step.\n</system_role>\n";
    for mode in MODES {
        let out = compressed(text, mode);
        assert!(out.len() < text.len(), "{mode:?}: {out:?}");
        let indented: Vec<&str> = out.lines().filter(|l| l.starts_with("    ")).collect();
        assert_eq!(indented.len(), 2, "{mode:?}: {out:?}");
        assert!(
            !indented.iter().any(|l| l.contains(" the ")),
            "{mode:?}: {out:?}"
        );
    }
}

#[test]
fn items_indented_under_a_list_item_stay_a_list() {
    let text = "- Check the build.\n\n    - Run the unit tests and read the whole log.\n    - Fix the first failure you see.\n";
    let out = compressed(text, Mode::Balanced);
    assert!(out.contains("    - Run unit tests"), "{out:?}");
}
