"""Train a Flame Duel (or Flamecraft Duals) policy on the CPU with sb3-contrib's MaskablePPO, against a registry bot,
and draw its learning curve.

    pip install -c constraints.txt -e '.[rl,train]'
    python examples/train_duel.py --game duel --minutes 25 --out out/train-duel

Every ``--eval-every`` steps the policy (deterministic, legal actions only) plays ``--eval-games`` matches against
``bot:random``, seats alternating; the win rates go to ``OUT/curve.json`` and ``OUT/curve.svg``. At the end it plays
``--final-games`` matches against ``bot:random`` and ``bot:greedy`` and writes ``OUT/result.json``. Not part of the
test suite: a measurement (docs/rl.md gives the figures reached).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import gymnasium
from sb3_contrib import MaskablePPO
from sb3_contrib.common.wrappers import ActionMasker
from stable_baselines3.common.callbacks import BaseCallback

import flametable.rl  # noqa: F401  (registers the environments)

IDS = {"duel": "flametable/Duel-v0", "duals": "flametable/Duals-v0"}


def make(game: str, opponent: str, seed: int) -> Any:
    env = gymnasium.make(IDS[game], opponent=opponent, seat="alternate", dict_obs=False)
    env.reset(seed=seed)
    return ActionMasker(env, lambda e: e.unwrapped.action_masks())


def score(model: Any, game: str, opponent: str, games: int, seed: int) -> float:
    """The policy's points per match against ``opponent`` (1 a win, 0.5 a draw), seats alternating."""
    env = make(game, opponent, seed)
    points = 0.0
    for i in range(games):
        # one seeded reset, then the environment's own generator: a seeded reset starts the seats' alternation
        # again, so seeding every match would put the policy in seat 0 every time
        obs, _ = env.reset(seed=seed) if i == 0 else env.reset()
        done, reward = False, 0.0
        while not done:
            action, _ = model.predict(obs, action_masks=env.unwrapped.action_masks(), deterministic=True)
            obs, reward, terminated, truncated, _ = env.step(int(action))
            done = terminated or truncated
        points += 1.0 if reward > 0 else 0.5 if reward == 0 else 0.0
    return points / games


class Curve(BaseCallback):
    """Every ``every`` steps, the score against bot:random; stops training once ``deadline`` has passed."""

    def __init__(self, game: str, every: int, games: int, deadline: float) -> None:
        super().__init__()
        self.game, self.every, self.games, self.deadline = game, every, games, deadline
        self.points: list[tuple[int, float, float]] = []
        self.next = 0

    def _on_step(self) -> bool:
        if self.num_timesteps >= self.next:
            self.next += self.every
            value = score(self.model, self.game, "bot:random", self.games, 10_000 + len(self.points))
            self.points.append((self.num_timesteps, time.monotonic(), value))
            print(f"{self.num_timesteps:>9} steps: {100 * value:5.1f}% against bot:random", flush=True)
        return time.monotonic() < self.deadline


def svg(points: list[tuple[int, float, float]], title: str) -> str:
    """The learning curve as a small SVG line chart (steps → score against bot:random)."""
    width, height, pad = 640, 320, 40
    top = max(p[0] for p in points) or 1
    xy = [(pad + (width - 2 * pad) * s / top, height - pad - (height - 2 * pad) * v) for s, _, v in points]
    line = " ".join(f"{x:.1f},{y:.1f}" for x, y in xy)
    grid = "".join(f'<line x1="{pad}" x2="{width - pad}" y1="{height - pad - (height - 2 * pad) * g:.1f}" '
                   f'y2="{height - pad - (height - 2 * pad) * g:.1f}" stroke="#ddd"/>'
                   f'<text x="4" y="{height - pad - (height - 2 * pad) * g + 4:.1f}" font-size="11">'
                   f'{int(100 * g)}%</text>'
                   for g in (0, 0.25, 0.5, 0.75, 1))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img">'
            f'<title>{title}</title>{grid}<polyline fill="none" stroke="#b3360b" stroke-width="2" points="{line}"/>'
            f'<text x="{pad}" y="20" font-size="13">{title}</text>'
            f'<text x="{width - pad}" y="{height - 8}" font-size="11" text-anchor="end">{top} steps</text></svg>\n')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=sorted(IDS), default="duel")
    parser.add_argument("--opponent", default="bot:random", help="the bot trained against")
    parser.add_argument("--minutes", type=float, default=60.0)
    parser.add_argument("--eval-every", type=int, default=50_000)
    parser.add_argument("--eval-games", type=int, default=100)
    parser.add_argument("--final-games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("out/train"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    env = make(args.game, args.opponent, args.seed)
    model = MaskablePPO("MlpPolicy", env, seed=args.seed, n_steps=2048, batch_size=256, learning_rate=3e-4,
                        gamma=0.99, ent_coef=0.01, policy_kwargs={"net_arch": [256, 256]}, verbose=0)
    curve = Curve(args.game, args.eval_every, args.eval_games, started + 60 * args.minutes)
    model.learn(total_timesteps=10**9, callback=curve)
    trained = time.monotonic() - started
    result = {"game": args.game, "trained_against": args.opponent, "steps": int(model.num_timesteps),
              "minutes": round(trained / 60, 1),
              "score_vs_random": score(model, args.game, "bot:random", args.final_games, 1_000_000),
              "score_vs_greedy": score(model, args.game, "bot:greedy", args.final_games, 2_000_000),
              "final_games": args.final_games}
    (args.out / "result.json").write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    (args.out / "curve.json").write_text(json.dumps(
        [{"steps": s, "seconds": round(t - started, 1), "score_vs_random": v} for s, t, v in curve.points]) + "\n",
        encoding="utf-8")
    (args.out / "curve.svg").write_text(svg(curve.points, f"{args.game}: score against bot:random while training"),
                                        encoding="utf-8")
    model.save(args.out / "policy.zip")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
