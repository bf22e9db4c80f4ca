"""Balance the Flame Duel characters with the simulation lab (issue: every character 40-60%, first chooser ±5).

Each character keeps the *shape* of its stat profile (which stat is its best, which its worst); the tool
tunes two things: one global spread ``k`` (how far a character's stats stand from its own mean: the larger,
the more the stat choice matters and the more the first chooser gains) and each character's stat sum
(stronger characters lose points, weaker ones gain). Every iteration plays greedy against greedy with
random line-ups and moves each parameter against its measured error. The result is written back into the
card set's TOML, changing only the three stat lines of each character.

    .venv/bin/python scripts/balance_duel.py --games 8000 --iterations 8 --jobs 2
    .venv/bin/python scripts/balance_duel.py --games 8000 --iterations 8 --ray    # on a local Ray (the cluster extra)

``--ray ADDRESS`` runs on a cluster instead, whose workers must read this machine's temporary directory (each
candidate card set is written there).
"""

from __future__ import annotations

import argparse
import re
import tempfile
import tomllib
from contextlib import nullcontext
from pathlib import Path

from flametable.games.duel.cards import load_card_set
from flametable.games.duel.summary import duel_sections
from flametable.sim.cluster import LOCAL, Cluster, connect
from flametable.sim.runner import SimSpec, run

CARDS = Path(__file__).resolve().parents[1] / "src/flametable/games/duel/data/cards.toml"
STATS = ("spark", "heat", "charm")


def stats_for(shape: list[float], total: float, k: float) -> list[int]:
    mean = total / 3
    vals = [mean + k * d for d in shape]
    vals = [max(10.0, v) for v in vals]
    scale = total / sum(vals)
    return [round(v * scale) for v in vals]


def write(text: str, stats: dict[int, list[int]]) -> str:
    """Replace the stat lines of each [[character]] block, leaving everything else untouched."""
    out, number = [], 0
    for line in text.splitlines(keepends=True):
        m = re.match(r"number = (\d+)", line)
        if m:
            number = int(m.group(1))
        m = re.match(r"(spark|heat|charm) = -?\d+", line)
        if m and number in stats:
            line = f"{m.group(1)} = {stats[number][STATS.index(m.group(1))]}\n"
        out.append(line)
    return "".join(out)


def measure(text: str, games: int, jobs: int, seed: int, cluster: Cluster | None = None) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "cards.toml"
        path.write_text(text, encoding="utf-8")
        cards = load_card_set(path)
        spec = SimSpec("duel", "bot:greedy", "bot:greedy", games, seed=seed, data=str(path))
        lines = list(run(spec, jobs, cluster=cluster))
    _, figures = duel_sections(lines, cards)
    return figures


def shapes(text: str) -> dict[int, tuple[list[float], float]]:
    """Each character's stat shape (its stats less their mean) and stat sum, from a card set's text."""
    out = {}
    for c in tomllib.loads(text)["character"]:
        vals = [c[s] for s in STATS]
        m = sum(vals) / 3
        out[c["number"]] = ([v - m for v in vals], float(sum(vals)))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=8000)
    ap.add_argument("--iterations", type=int, default=8)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--ray", nargs="?", const=LOCAL, default=None, metavar="ADDRESS",
                    help="play on Ray instead of --jobs: a local Ray, or the cluster at ADDRESS")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--k", type=float, default=None, help="starting spread (default: from the data)")
    ap.add_argument("--dry-run", action="store_true", help="measure only")
    ap.add_argument("--cards", type=Path, default=CARDS, help="the card set to start from")
    ap.add_argument("--shapes", type=Path, default=None,
                    help="take each character's stat shape from this set (default: from --cards)")
    ap.add_argument("--k-gain", type=float, default=1.5, help="how hard the spread reacts to the chooser's edge")
    ap.add_argument("--sum-gain", type=float, default=60.0, help="stat points moved per unit of win-rate error")
    ap.add_argument("--out", type=Path, default=CARDS, help="where to write the balanced set (default: in place)")
    args = ap.parse_args()
    text = args.cards.read_text(encoding="utf-8")
    found = shapes(text)
    shape = {n: sh for n, (sh, _) in found.items()}
    total = {n: t for n, (_, t) in found.items()}
    if args.shapes is not None:
        shape.update({n: sh for n, (sh, _) in shapes(args.shapes.read_text(encoding="utf-8")).items()})
    k = args.k if args.k is not None else 1.0
    with connect(args.ray) if args.ray is not None else nullcontext() as cluster:
        iterate(args, text, shape, total, k, cluster)


def iterate(args: argparse.Namespace, text: str, shape: dict[int, list[float]], total: dict[int, float], k: float,
            cluster: Cluster | None) -> None:
    for it in range(args.iterations + 1):
        stats = {n: stats_for(shape[n], total[n], k) for n in shape}
        candidate = write(text, stats)
        fig = measure(candidate, args.games, args.jobs, args.seed + it, cluster)
        first = fig["first_chooser_score"]["value"]  # type: ignore[index]
        chars = {int(c): v["value"] for c, v in fig["characters"].items()}  # type: ignore[attr-defined]
        worst = max(abs(v - 0.5) for v in chars.values())
        print(f"iteration {it}: k={k:.3f} first chooser {first:.3f}, characters "
              f"{min(chars.values()):.3f}..{max(chars.values()):.3f} (worst off by {worst:.3f})", flush=True)
        if args.dry_run:
            return
        text = candidate
        args.out.write_text(text, encoding="utf-8")
        if it == args.iterations:
            break
        if args.k_gain:
            k = max(0.05, k * (1 - args.k_gain * (first - 0.5)))
        for n, v in chars.items():
            total[n] -= args.sum_gain * (v - 0.5)


if __name__ == "__main__":
    main()
