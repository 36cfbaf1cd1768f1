//! Structure that is data: what the fifteenth audit (structured text pasted without fences)
//! found damaged, in every mode. Indentation is structure: an indented code block comes back as
//! written, and an indented line of text keeps its indentation (YAML's nesting, an outline, a
//! prompt's sections set in under their tags) while its words are compressed like any other
//! text. Unfenced code, patches, columns, logs and the text a task works on come back as written.

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

/// Each `(prompt, line)`: every mode's output of the prompt holds the line as written.
fn keeps_lines(cases: &[(&str, &str)]) {
    for (prompt, line) in cases {
        for mode in MODES {
            let out = compressed(prompt, mode);
            assert!(
                out.lines().any(|l| l == *line),
                "{mode:?}: {line:?} in {out:?}"
            );
        }
    }
}

#[test]
fn unfenced_code_and_commands_keep_their_words() {
    keeps_lines(&[
        (
            "Fix this code.\n\nif x is None:\n    y = a + the_rest\n",
            "if x is None:",
        ),
        (
            "Fix this code.\n\nif x is None:\n    y = a + the_rest\n",
            "    y = a + the_rest",
        ),
        (
            "Why?\n\nif result is False or result is None: pass\n",
            "if result is False or result is None: pass",
        ),
        (
            "What does this do?\n\ngrep -c the access.log\n",
            "grep -c the access.log",
        ),
        (
            "What does this do?\n\necho a is the value\n",
            "echo a is the value",
        ),
        (
            "Simplify the expression.\n\nf(x) = a x^2 + b x + c\n",
            "f(x) = a x^2 + b x + c",
        ),
        (
            "Why is this wrong?\n\nlet a = an + the;\n",
            "let a = an + the;",
        ),
        (
            "Why does it fail?\n\n  File \"main.py\", line 3\n    if x is the_value\n                     ^\nSyntaxError: expected ':'\n",
            "    if x is the_value",
        ),
        (
            "Why does it crash?\n\nException in thread \"main\" java.lang.NullPointerException: Cannot invoke \"String.length()\" because \"s\" is null\n",
            "Exception in thread \"main\" java.lang.NullPointerException: Cannot invoke \"String.length()\" because \"s\" is null",
        ),
    ]);
}

#[test]
fn a_patch_comes_back_as_written() {
    let hunk = "@@ -1,4 +1,4 @@\n def handle(event):\n-    if event is None:\n+    if event is None or event == \"\":\n         return the_default\n \n-    name = event.get(\"name\", \"the default\")\n+    name = event.get(\"name\", \"a default\")\n";
    let text = format!("Please review this patch.\n\n--- a/app.py\n+++ b/app.py\n{hunk}");
    for mode in MODES {
        let out = compressed(&text, mode);
        assert!(out.contains(hunk), "{mode:?}: {out:?}");
        assert!(
            out.contains("--- a/app.py\n+++ b/app.py\n"),
            "{mode:?}: {out:?}"
        );
    }
}

#[test]
fn columns_keep_their_cells_and_alignment() {
    keeps_lines(&[
        (
            "Sum the qty column.\n\nname\tqty\tnote\nbanana\t\tis yellow\n",
            "banana\t\tis yellow",
        ),
        (
            "Summarise.\n\nModel    Score\n-----    -----\nbase     0.8\n",
            "Model    Score",
        ),
        (
            "Summarise.\n\nModel    Score\n-----    -----\nbase     0.8\n",
            "-----    -----",
        ),
        (
            "Read the values.\n\n│ Name   │ Value   │\n│ the    │ a       │\n",
            "│ the    │ a       │",
        ),
        (
            "Suggest a layout.\n\nsrc/\n├── main.rs\n│   └── the_utils/\n",
            "│   └── the_utils/",
        ),
        (
            "Convert this table.\n\nAlice | the admin | a user\n",
            "Alice | the admin | a user",
        ),
        (
            "Explain the error.\n\nerror[E0308]: mismatched types\n  |\n2 |     let x: i32 = \"a\";\n  |            ---   ^^^ expected `i32`, found `&str`\n",
            "  |",
        ),
    ]);
}

#[test]
fn repeated_lines_that_are_data_stay_repeated() {
    let log = "How many failures?\n\n10:00:01 ERROR the disk is full on host\n10:00:01 ERROR the disk is full on host\n";
    let code = "Why is the total wrong?\n\ntotal = 0\ntotal += compute(a, b, c)\ntotal += compute(a, b, c)\n";
    for mode in MODES {
        let out = compressed(log, mode);
        assert_eq!(
            out.matches("10:00:01 ERROR the disk is full on host")
                .count(),
            2,
            "{mode:?}: {out:?}"
        );
        let out = compressed(code, mode);
        assert_eq!(
            out.matches("total += compute(a, b, c)").count(),
            2,
            "{mode:?}: {out:?}"
        );
    }
    // A sentence said twice in a row still goes the second time.
    let out = compressed(
        "Always answer in English please.\nAlways answer in English please.\n",
        Mode::Conservative,
    );
    assert_eq!(
        out.matches("Always answer in English").count(),
        1,
        "{out:?}"
    );
}

#[test]
fn yaml_keeps_its_documents_entries_and_values() {
    keeps_lines(&[
        (
            "Merge these YAML documents.\n\nkind: the config\n---\nname: second\n",
            "---",
        ),
        (
            "Fix the YAML.\n\nitems:\n  - name: x\n  - name: y\n",
            "  - name: x",
        ),
        (
            "Fix the YAML.\n\nentries:\n  - value: the\n  - name: is\n",
            "  - value: the",
        ),
    ]);
}

#[test]
fn the_text_a_task_works_on_stays_as_written() {
    keeps_lines(&[
        (
            "Rewrite in the passive voice.\n\nInput: The cat chased the mouse.\nOutput: The mouse was chased by the cat.\n",
            "Output: The mouse was chased by the cat.",
        ),
        (
            "Extract the article.\n\nQ: The apple is red.\nA: The\n",
            "Q: The apple is red.",
        ),
        (
            "Fix the spelling in this sentence: The the cat is on teh mat.\n",
            "Fix spelling in this sentence: The the cat is on teh mat.",
        ),
        (
            "Translate the following text into French.\n\nThe weather is very nice today.\n",
            "The weather is very nice today.",
        ),
        (
            "Analyse this poem.\n\nShall I compare thee to a summer's day?\n\nThe rain in Spain is mainly on the plain.\n",
            "The rain in Spain is mainly on the plain.",
        ),
        (
            "Extract the article (a, an or the) in each sentence.\n",
            "Extract article (a, an or the) in each sentence.",
        ),
        (
            "List the titles.\n\n<title>The Lord of the Rings</title>\n",
            "<title>The Lord of the Rings</title>",
        ),
    ]);
}

#[test]
fn commands_formulas_and_patches_of_other_shapes_keep_their_words() {
    // Found by the sixteenth audit, which re-ran the fifteenth's probes and tried other shapes.
    keeps_lines(&[
        ("What do these do?\n\ncp a b\nln -s a b\n", "cp a b"),
        (
            "What does this do?\n\nuser@host:~$ grep -r the src/\n",
            "user@host:~$ grep -r the src/",
        ),
        (
            "Explain this Makefile.\n\nall: main.o\n\t$(CC) -o a main.o util.o\n\t@echo the build is done\n",
            "\t@echo the build is done",
        ),
        (
            "Make it smaller.\n\nFROM alpine\nRUN echo the build is done > /tmp/x\n",
            "RUN echo the build is done > /tmp/x",
        ),
        (
            "When does it run?\n\n0 5 * * 1 /usr/bin/backup the disk\n",
            "0 5 * * 1 /usr/bin/backup the disk",
        ),
        ("Why does it fail?\n\nreturn a is b\n", "return a is b"),
        ("Solve for x: a x + b = c\n", "Solve for x: a x + b = c"),
        (
            "Review this change.\n\n-    if a is None:\n+    if a is None or a == 0:\n",
            "-    if a is None:",
        ),
        (
            "Who is free?\n\nAlice       the admin            is on leave\nBob         a developer          works on the API\n",
            "Bob         a developer          works on the API",
        ),
        (
            "Average the ratings.\n\nid,name,comment\n3,Blender,is the best one\n4,Mixer,is a good one\n",
            "3,Blender,is the best one",
        ),
        (
            "Count the labels.\n\nthe food is great\tpositive\nthe room is a mess\tnegative\n",
            "the room is a mess\tnegative",
        ),
    ]);
}

#[test]
fn examples_in_pairs_and_texts_to_edit_stay_as_written() {
    keeps_lines(&[
        (
            "Decide.\n\nPremise: The cat is on the mat.\nHypothesis: A cat is on a mat.\n",
            "Hypothesis: A cat is on a mat.",
        ),
        (
            "Continue.\n\nHuman: What is the capital of France?\nAI: The capital is Paris.\n",
            "AI: The capital is Paris.",
        ),
        (
            "Complete it.\n\n### Input:\nThe cat is chasing the mouse.\n",
            "The cat is chasing the mouse.",
        ),
        (
            "Output must be exactly: It is a good day.\n",
            "Output must be exactly: It is a good day.",
        ),
        (
            "Make this more formal:\n\nHey, the meeting is moved to a later time.\n",
            "Hey, the meeting is moved to a later time.",
        ),
    ]);
    // A lone `Review:` heads a step of instructions, which are compressed.
    let out = compressed(
        "3. Generate Review: Structure your feedback according to the specified format.\n",
        Mode::Balanced,
    );
    assert!(!out.contains("the specified"), "{out:?}");
}

#[test]
fn aggressive_keeps_the_dash_of_a_task_list() {
    let out = compressed(
        "Checklist:\n\n- [ ] Write the tests\n- [x] Ship the fix\n",
        Mode::Aggressive,
    );
    assert!(out.contains("- [ ] Write tests"), "{out:?}");
}

#[test]
fn the_options_of_a_multiple_choice_question_stay_as_written() {
    let text = "Answer with a single letter.\n\nWhich planet is the largest?\nA. Mars\nB. Jupiter\nC. The Earth\nD. Venus\n";
    keeps_lines(&[(text, "C. The Earth")]);
}

#[test]
fn an_emails_headers_stay_as_written() {
    let text = "Summarise this email.\n\nFrom: Alice <alice@example.com>\nTo: Bob <bob@example.com>\nSubject: The invoice is attached\n\nHi Bob, the invoice is attached.\n";
    keeps_lines(&[(text, "Subject: The invoice is attached")]);
}
