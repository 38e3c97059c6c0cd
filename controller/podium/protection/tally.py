"""What one subject (a rated player, or a seat nobody rated) did, and the figures worked out from it.

A :class:`Tally` is given, per house-banked hand its table dealt while the
subject was there, a :class:`Round`: the true count when bets closed and the
subject's main wager (None: it sat the hand out); and its
:class:`~controller.podium.protection.play.Decision`\\ s. It keeps running sums
only (and the last :data:`PLOTTED` bets and :data:`DECIDED` decisions for the
pages), so a subject followed all day costs the same as one just seated.
:meth:`Tally.figures` works out, under the floor's :class:`~controller.podium.protection.settings.Settings`:

* **bets against the count**: the hands with a wager, the Pearson correlation of
  wager with true count and how sure it is that the bets rise with the count
  (one-sided, Fisher's z: ``Φ(atanh(r) √(n-3))``), the spread (largest bet over
  smallest), the average bet at a true count of +2 or more and at 0 or less,
  and the *ramp*, the one over the other (once each has :data:`RAMP_HANDS` hands:
  a few raised bets that happen to fall at high counts make a correlation, not
  a ramp);
* **wonging**: the *entries* (a hand with a wager after sitting out the hand
  before in the same shoe, or the first hand seen of a subject sitting down mid-shoe)
  and those at a high count (``wong_count`` or more); the hands played at a high
  count, and how sure it is that a subject who sits out plays at high counts more
  often than the table deals them (one-sided binomial test of the hands played at
  a high count against the share of all the subject's rounds at such a count);
* **play**: decisions, the share that match basic strategy, the deviations that
  go with the count, and how sure it is that deviations follow the count
  (binomial against one in two: a careless player's go with it less often);
* **suspicion**: the largest of those three confidences (the bets' only when
  the correlation is positive), and the **reasons** (``bets``, ``wonging``,
  ``play``) whose thresholds are all crossed.

>>> tally = Tally("player:P1", "P1", "P1")
>>> for n in range(60):
...     _ = tally.add_round(Round("T1", n, "ts", 1, float(n % 5 - 1), 500 * (1 + n % 5)))
>>> f = tally.figures()
>>> f.hands, round(f.correlation, 3), f.spread, f.reasons
(60, 1.0, 5.0, ('bets',))
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field
from typing import NotRequired, TypedDict

from controller.podium.protection.play import Decision
from controller.podium.protection.settings import DEFAULT, Settings

PLOTTED = 2000
"""The newest bets a subject's figures give for the plot."""

DECIDED = 200
"""The newest decisions a subject keeps (its page shows those that deviated)."""

LARGEST_COUNT = 10.0
"""True counts beyond +/- this are taken as this (late in a shoe a count per deck grows large)."""

HIGH, LOW = 2.0, 0.0
"""The true counts the average bets are compared at (at or above, at or below)."""

RAMP_HANDS = 5
"""Hands at each of those counts before the ramp (the one average over the other) is taken as found."""


@dataclass(frozen=True)
class Round:
    """A house-banked hand as one subject saw it: the true count at ``bets.closed`` and its wager."""

    table: str
    hand: int | None
    ts: str
    shoe_id: int | None
    true: float
    wager: int | None
    """The main wager in cents; None: the subject sat the hand out."""
    first_of_shoe: bool = False
    entry: bool = False
    """A wager after sitting out (set by :meth:`Tally.add_round`)."""


def normal_cdf(z: float) -> float:
    """The standard normal distribution function.

    >>> round(normal_cdf(0.0), 3), round(normal_cdf(3.090232), 4)
    (0.5, 0.999)
    """
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))


def binomial_tail(k: int, n: int, p: float) -> float:
    """P(X >= k) for X binomial(n, p) (in logarithms: exact enough for thousands of trials).

    >>> binomial_tail(0, 5, 0.2), round(binomial_tail(5, 5, 0.2), 5), binomial_tail(2000, 4000, 0.5) < 0.51
    (1.0, 0.00032, True)
    """
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    p = min(max(p, 1e-12), 1 - 1e-12)
    log_p, log_q, log_n = math.log(p), math.log1p(-p), math.lgamma(n + 1)

    def terms(found: range) -> float:
        return sum(math.exp(log_n - math.lgamma(i + 1) - math.lgamma(n - i + 1) + i * log_p + (n - i) * log_q)
                   for i in found)

    if k <= n * p:                 # the shorter sum: one less the chance of fewer than k
        return max(0.0, min(1.0, 1.0 - terms(range(k))))
    return min(1.0, terms(range(k, n + 1)))


def correlation(pairs: list[tuple[float, int]]) -> float:
    """Pearson's correlation of the pairs (0 when either side does not vary).

    >>> correlation([(1.0, 5), (2.0, 10), (3.0, 15)]), correlation([(1.0, 5), (2.0, 5)])
    (1.0, 0.0)
    """
    n = len(pairs)
    if n < 2:
        return 0.0
    mx = sum(x for x, _ in pairs) / n
    my = sum(y for _, y in pairs) / n
    sxy = sum((x - mx) * (y - my) for x, y in pairs)
    sxx = sum((x - mx) ** 2 for x, _ in pairs)
    syy = sum((y - my) ** 2 for _, y in pairs)
    if sxx <= 0 or syy <= 0:
        return 0.0
    return max(-1.0, min(1.0, sxy / math.sqrt(sxx * syy)))


def correlation_confidence(r: float, n: int) -> float:
    """How sure it is that the correlation behind ``r`` over ``n`` pairs is above 0 (Fisher's z)."""
    if n < 4:
        return 0.5
    r = max(-0.999999, min(0.999999, r))
    return normal_cdf(math.atanh(r) * math.sqrt(n - 3))


class FiguresJson(TypedDict):
    """A subject's figures as the pages and reports give them (:meth:`Figures.to_json`)."""

    rounds: int
    hands: int
    correlation: float
    bet_confidence: float
    smallest_bet: int | None
    largest_bet: int | None
    spread: float | None
    average_bet_high: int | None
    average_bet_low: int | None
    ramp: float | None
    entries: int
    high_entries: int
    high_share: float
    high_hands: int
    wong_confidence: float
    decisions: int
    matched: int
    accuracy: float | None
    deviations: int
    count_plays: int
    insurance: int
    play_confidence: float
    suspicion: float
    reasons: list[str]
    plot: NotRequired[list[tuple[float, int]]]
    """The bets against the count (``[[true, cents], ...]``), on a subject's own page."""


@dataclass(frozen=True)
class Figures:
    """A subject's figures (see the module's words); money in cents."""

    rounds: int
    hands: int
    correlation: float
    bet_confidence: float
    smallest: int | None
    largest: int | None
    high_bet: int | None
    low_bet: int | None
    ramp: float | None
    """The average bet at +2 or more over the average at 0 or less (None before each has
    :data:`RAMP_HANDS` hands)."""
    entries: int
    high_entries: int
    high_share: float
    """The share of the subject's rounds at ``wong_count`` or more (what its hands are compared with)."""
    high_hands: int
    """Hands played at ``wong_count`` or more."""
    wong_confidence: float
    decisions: int
    matched: int
    deviations: int
    count_plays: int
    insurance: int
    play_confidence: float
    reasons: tuple[str, ...]
    pairs: tuple[tuple[float, int], ...] = ()

    @property
    def spread(self) -> float | None:
        """The largest bet over the smallest (None without a bet)."""
        return None if not self.smallest or self.largest is None else round(self.largest / self.smallest, 2)

    @property
    def accuracy(self) -> float | None:
        """The share of decisions that matched basic strategy (None without one)."""
        return round(self.matched / self.decisions, 4) if self.decisions else None

    @property
    def suspicion(self) -> float:
        """The largest confidence (the bets' only when they rise with the count)."""
        bets = self.bet_confidence if self.correlation > 0 else 0.0
        return max(bets, self.wong_confidence, self.play_confidence)

    def to_json(self, plot: bool = False) -> FiguresJson:
        """The figures; with ``plot``, the bets against the count (``[[true, cents], ...]``)."""
        found: FiguresJson = {
            "rounds": self.rounds, "hands": self.hands, "correlation": round(self.correlation, 4),
            "bet_confidence": round(self.bet_confidence, 6), "smallest_bet": self.smallest,
            "largest_bet": self.largest, "spread": self.spread, "average_bet_high": self.high_bet,
            "average_bet_low": self.low_bet, "ramp": self.ramp, "entries": self.entries,
            "high_entries": self.high_entries,
            "high_share": round(self.high_share, 4), "high_hands": self.high_hands,
            "wong_confidence": round(self.wong_confidence, 6),
            "decisions": self.decisions, "matched": self.matched, "accuracy": self.accuracy,
            "deviations": self.deviations, "count_plays": self.count_plays, "insurance": self.insurance,
            "play_confidence": round(self.play_confidence, 6), "suspicion": round(self.suspicion, 6),
            "reasons": list(self.reasons)}
        if plot:
            found["plot"] = [(round(true, 2), wager) for true, wager in self.pairs]
        return found


@dataclass
class Tally:
    """What one subject did, as running sums (see the module's words)."""

    subject: str
    label: str
    player: str | None = None
    """The player id when the subject is a rated player."""
    settings: Settings = DEFAULT
    seats: set[tuple[str, int]] = field(default_factory=set)
    ratings: set[int] = field(default_factory=set)
    raised: set[str] = field(default_factory=set)
    """The reasons an alert was raised for already."""
    rounds: int = 0
    high_rounds: int = 0
    hands: int = 0
    high_hands: int = 0
    entries: int = 0
    high_entries: int = 0
    smallest: int | None = None
    largest: int | None = None
    high_bets: tuple[int, int] = (0, 0)
    """Cents bet, and hands, at a true count of :data:`HIGH` or more."""
    low_bets: tuple[int, int] = (0, 0)
    decisions: int = 0
    matched: int = 0
    deviations: int = 0
    count_plays: int = 0
    insurance: int = 0
    last_ts: str = ""
    plot: deque[tuple[float, int]] = field(default_factory=lambda: deque(maxlen=PLOTTED))
    decided: deque[Decision] = field(default_factory=lambda: deque(maxlen=DECIDED))
    version: int = 0
    _moments: tuple[float, float, float, float, float] = (0.0, 0.0, 0.0, 0.0, 0.0)
    """Running means of count and bet, and the sums of squares and of products about them (Welford)."""
    _last: dict[str, Round] = field(default_factory=dict, repr=False)
    """Per table, the subject's last round there."""
    _figures: tuple[int, Figures | None] = field(default=(-1, None), repr=False)

    def add_round(self, round_: Round) -> Round:
        """Count a round (marked as an entry when it is one); the round as counted."""
        last = self._last.get(round_.table)
        wager = round_.wager
        entry = wager is not None and (
            (last is None and not round_.first_of_shoe)
            or (last is not None and last.wager is None and last.shoe_id == round_.shoe_id))
        kept = Round(round_.table, round_.hand, round_.ts, round_.shoe_id, round_.true, wager,
                     round_.first_of_shoe, entry)
        self._last[round_.table] = kept
        high = round_.true >= self.settings.wong_count
        self.rounds += 1
        self.high_rounds += high
        self.last_ts = max(self.last_ts, round_.ts)
        self.version += 1
        if wager is None:
            return kept
        true = max(-LARGEST_COUNT, min(LARGEST_COUNT, round_.true))
        self.hands += 1
        self.high_hands += high
        self.entries += entry
        self.high_entries += entry and high
        self.smallest = wager if self.smallest is None else min(self.smallest, wager)
        self.largest = wager if self.largest is None else max(self.largest, wager)
        if true >= HIGH:
            self.high_bets = (self.high_bets[0] + wager, self.high_bets[1] + 1)
        if true <= LOW:
            self.low_bets = (self.low_bets[0] + wager, self.low_bets[1] + 1)
        mean_x, mean_y, sxx, syy, sxy = self._moments
        dx, dy = true - mean_x, wager - mean_y
        mean_x += dx / self.hands
        mean_y += dy / self.hands
        self._moments = (mean_x, mean_y, sxx + dx * (true - mean_x), syy + dy * (wager - mean_y),
                         sxy + dx * (wager - mean_y))
        self.plot.append((true, wager))
        return kept

    def add_decision(self, decision: Decision) -> None:
        """Count a decision."""
        self.decisions += 1
        self.matched += decision.matched
        self.deviations += not decision.matched
        self.count_plays += decision.with_count(self.settings.insurance_index)
        self.insurance += decision.taken == "insurance"
        self.decided.append(decision)
        self.version += 1

    @property
    def correlation(self) -> float:
        """Pearson's correlation of bet with true count so far (0 when either does not vary)."""
        _, _, sxx, syy, sxy = self._moments
        if sxx <= 1e-12 or syy <= 1e-9:
            return 0.0
        return max(-1.0, min(1.0, sxy / math.sqrt(sxx * syy)))

    def may_cross(self) -> bool:
        """Whether a threshold not crossed yet may be crossed now: the least hands, entries or count
        plays reached, and the test's statistic near (its normal approximation at least
        :data:`NEAR` standard deviations out, where crossing takes about 3.1). The figures need not be
        worked out otherwise: a cheap look at every hand, the exact tests only for those near."""
        s = self.settings
        if self.hands >= s.min_hands and "bets" not in self.raised and self.correlation >= s.min_correlation:
            return True
        if self.entries >= s.min_entries and "wonging" not in self.raised and self.hands < self.rounds:
            share = self.high_rounds / self.rounds
            if _deviations(self.high_hands, self.hands, share) >= NEAR:
                return True
        return (self.count_plays >= s.min_count_plays and "play" not in self.raised
                and _deviations(self.count_plays, self.deviations, 0.5) >= NEAR)

    def figures(self) -> Figures:
        """The figures under the tally's settings (worked out again only after a change)."""
        version, found = self._figures
        if found is None or version != self.version:
            found = self._worked_out()
            self._figures = (self.version, found)
        return found

    def _worked_out(self) -> Figures:
        s = self.settings
        r = self.correlation
        bet_confidence = correlation_confidence(r, self.hands)
        high_share = self.high_rounds / self.rounds if self.rounds else 0.0
        sat_out = self.hands < self.rounds
        wong_confidence = (1.0 - binomial_tail(self.high_hands, self.hands, high_share)
                           if sat_out and self.hands else 0.0)
        play_confidence = (1.0 - binomial_tail(self.count_plays, self.deviations, 0.5)
                           if self.deviations else 0.0)
        spread = self.largest / self.smallest if self.smallest and self.largest else 0.0
        ramp = None
        if self.high_bets[1] >= RAMP_HANDS and self.low_bets[1] >= RAMP_HANDS and self.low_bets[0]:
            ramp = round(self.high_bets[0] * self.low_bets[1] / (self.low_bets[0] * self.high_bets[1]), 2)
        reasons = []
        if self.hands >= s.min_hands and r >= s.min_correlation and bet_confidence >= s.confidence \
                and spread >= s.min_spread and (s.min_ramp <= 0 or (ramp is not None and ramp >= s.min_ramp)):
            reasons.append("bets")
        if self.entries >= s.min_entries and wong_confidence >= s.confidence:
            reasons.append("wonging")
        if self.count_plays >= s.min_count_plays and play_confidence >= s.confidence:
            reasons.append("play")
        return Figures(self.rounds, self.hands, r, bet_confidence, self.smallest, self.largest,
                       _mean(self.high_bets), _mean(self.low_bets), ramp, self.entries, self.high_entries,
                       high_share, self.high_hands, wong_confidence, self.decisions, self.matched,
                       self.deviations, self.count_plays, self.insurance, play_confidence, tuple(reasons),
                       tuple(self.plot))


NEAR = 2.0
"""Standard deviations out from which a subject's exact tests are worked out at a hand."""


def _deviations(k: int, n: int, p: float) -> float:
    """How many standard deviations ``k`` successes in ``n`` lie above binomial(n, p)'s mean."""
    spread = n * p * (1 - p)
    return (k - n * p) / math.sqrt(spread) if spread > 0 else (math.inf if k > n * p else 0.0)


def _mean(bets: tuple[int, int]) -> int | None:
    return round(bets[0] / bets[1]) if bets[1] else None
