"""Writes compress request bodies of exactly N characters of real prompt text.

Usage: make_prompts.py CORPUS_DIR OUT_DIR N [N ...]
Texts from the corpus JSONL files (one {"id", "kind", "text"} object a line) are joined in file
order until N characters are reached, then cut at N characters (Unicode characters, as the
API counts them). Deterministic, so runs are comparable.
"""

import json
import pathlib
import sys


def corpus_text(corpus: pathlib.Path, need: int) -> str:
    parts, size = [], 0
    for path in sorted(corpus.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            text = json.loads(line).get("text", "")
            if text:
                parts.append(text)
                size += len(text) + 2
                if size >= need:
                    return "\n\n".join(parts)
    if not parts:
        sys.exit(f"no prompts found in {corpus}")
    joined = "\n\n".join(parts)
    return (joined * (need // len(joined) + 1))


def main() -> None:
    corpus, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    for n in map(int, sys.argv[3:]):
        prompt = corpus_text(corpus, n)[:n]
        assert len(prompt) == n
        body = json.dumps({"prompt": prompt, "mode": "balanced"})
        (out / f"prompt-{n}.json").write_text(body, encoding="utf-8")


if __name__ == "__main__":
    main()
