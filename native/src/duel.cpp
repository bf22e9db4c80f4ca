// Flame Duel's rules engine in C++ (issue 26): the same rules, actions and ids, seeded randomness and views as
// the reference engine, src/flametable/games/duel/state.py (rulings R1-R15 cited as there). Every function below
// is a transcription of the Python method of the same name; the differential tests (tests/games/duel/
// test_native.py) hold them to it. No I/O, no clock, no global randomness.
//
// The card data stays data: Python reads the card set and hands its integer tables to DuelTables. A state is one
// trivially copyable struct (clone: a copy of it) beside a shared pointer to the tables.

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>
#include <nanobind/ndarray.h>

#include <algorithm>
#include <cmath>
#include <array>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <exception>
#include <thread>
#include <vector>

namespace nb = nanobind;

namespace {

// A vector of at most N small values kept inline, so that a state is one block of memory.
template <typename T, int N>
struct Vec {
    T v[N];
    int n = 0;
    void push(T x) {
        if (n >= N) throw std::length_error("flametable native duel: a list outgrew its capacity");
        v[n++] = x;
    }
    T pop_back() { return v[--n]; }
    void erase_at(int i) {
        for (int j = i; j + 1 < n; ++j) v[j] = v[j + 1];
        --n;
    }
    int find(T x) const {
        for (int i = 0; i < n; ++i)
            if (v[i] == x) return i;
        return -1;
    }
    bool contains(T x) const { return find(x) >= 0; }
    bool remove(T x) {  // the first occurrence, as list.remove
        int i = find(x);
        if (i < 0) return false;
        erase_at(i);
        return true;
    }
    void clear() { n = 0; }
    T &operator[](int i) { return v[i]; }
    const T &operator[](int i) const { return v[i]; }
    T *begin() { return v; }
    T *end() { return v + n; }
    const T *begin() const { return v; }
    const T *end() const { return v + n; }
};

constexpr int NUM_CHARACTERS = 33;
constexpr int NUM_SUPPORTS = 21;
constexpr int NUM_ACTIONS = 187;
constexpr int HAND_SIZE = 3, MAX_PLAYS = 2, ABILITY_BONUS = 15, ROUNDS = 3;
constexpr int NO_STAT = -1, DRAW = -1;

// Phase (rules.py), Kind (actions.py), EffectKind and SupportKind (cards.py): the enums' values.
enum Phase { DRAFT = 0, LINEUP = 1, CHAMPION = 2, STAT = 3, PLAY = 4, CHOICE = 5, OVER = 6 };
enum Kind { K_PASS = 0, K_PLAY, K_ABILITY, K_STAT, K_PICK, K_LINE, K_CHAMPION, K_TAKE, K_SWAP };
enum Effect { E_DRAW = 0, E_PEEK, E_RECOVER, E_SWAP_PLACE, E_CLEAR_PLACE, E_BOOST, E_SAP };
enum SupportKind { ITEM = 0, PLACE = 1, EVENT = 2 };
// Reason (rules.py), in the order of its members.
enum Reason { TWO_WINS = 0, MORE_WINS, TIEBREAK, TIED_MATCH };

// Action ids laid out kind by kind (actions.py): the offset of each kind and the first argument.
constexpr int OFFSET[9] = {0, 1, 22, 43, 46, 79, 112, 145, 166};
inline int act(int kind, int arg) {
    return OFFSET[kind] + ((kind == K_PASS || kind == K_STAT) ? arg : arg - 1);
}
inline int kind_of(int id) {
    int k = 8;
    while (OFFSET[k] > id) --k;
    return k;
}
inline int arg_of(int id) {
    int k = kind_of(id);
    return id - OFFSET[k] + ((k == K_PASS || k == K_STAT) ? 0 : 1);
}

// The reasons an action is refused; DuelTables.illegal turns one into the reference engine's IllegalAction.
enum Illegal {
    ABILITY_ONCE = 0,   // R6
    NOT_CHAMPION,       // R14
    MATCH_OVER,
    NOT_NOW,            // the phase expects another kind of action
    NOT_IN_HAND,
    ALREADY_PICKED,     // R2
    NOT_YOURS,
    ALREADY_LINED,
    CHOICE_NOT_NOW,     // the pending effect expects the other choice
    NOT_IN_DISCARD,
};

struct Refused {
    int code;
    int action;
    int extra;  // NOT_NOW: the phase; CHOICE_NOT_NOW: the kind wanted
};

// ------------------------------------------------------------------ the random generator (core/rng.py)

constexpr uint64_t MUL = 6364136223846793005ULL, INC = 1442695040888963407ULL;

uint64_t mix(uint64_t z) {
    z += 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

struct Rng {
    uint64_t state;
    uint64_t next() { return state = state * MUL + INC; }
    int below(int n) { return int(((next() >> 32) * uint64_t(n)) >> 32); }
    int coin() { return int(next() >> 63); }
    template <typename V>
    void shuffle(V &items) {
        for (int i = items.n - 1; i > 0; --i) {
            int j = int(((next() >> 32) * uint64_t(i + 1)) >> 32);
            std::swap(items[i], items[j]);
        }
    }
    // ``k`` distinct items of ``pool`` (a copy) in random order: a partial Fisher-Yates.
    template <typename V>
    V sample(V pool, int k) {
        int n = pool.n;
        for (int i = 0; i < std::min(k, n); ++i) {
            int j = i + int(((next() >> 32) * uint64_t(n - i)) >> 32);
            std::swap(pool[i], pool[j]);
        }
        pool.n = std::min(k, n);
        return pool;
    }
};

// ------------------------------------------------------------------ the card set's tables (cards.py)

struct Tables {
    int printed[NUM_CHARACTERS + 1][3];
    int charm[NUM_CHARACTERS + 1];
    int support_kind[NUM_SUPPORTS + 1];
    int support_stat[NUM_SUPPORTS + 1];
    int support_bonus[NUM_SUPPORTS + 1];
    bool equips[NUM_SUPPORTS + 1][NUM_CHARACTERS + 1];
    int at_most[NUM_SUPPORTS + 1];   // -1: none
    int at_least[NUM_SUPPORTS + 1];  // -1: none
    Vec<std::pair<int8_t, int8_t>, 10> support_effects[NUM_SUPPORTS + 1];
    Vec<std::pair<int8_t, int8_t>, 10> ability_effects[NUM_CHARACTERS + 1];
    // Python's side: the DuelAction of each id, their notation, and the factories of what leaves the engine.
    nb::object actions;
    PyObject *action[NUM_ACTIONS];
    // The actions by address (open addressing): apply finds the id of one of these without reading its attribute.
    static constexpr int SLOTS = 512;
    PyObject *key[SLOTS] = {};
    int16_t value[SLOTS] = {};
    static int slot_of(const PyObject *a) { return int((reinterpret_cast<uintptr_t>(a) >> 4) * 2654435761u) & (SLOTS - 1); }
    void index(PyObject *a, int id) {
        int i = slot_of(a);
        while (key[i]) i = (i + 1) & (SLOTS - 1);
        key[i] = a;
        value[i] = int16_t(id);
    }
    int find(const PyObject *a) const {
        for (int i = slot_of(a); key[i]; i = (i + 1) & (SLOTS - 1))
            if (key[i] == a) return value[i];
        return -1;
    }
    std::string text[NUM_ACTIONS];
    nb::object make_outcome;  // (winner or None, reason index, wins 0, wins 1) -> Outcome
    nb::object illegal;       // (code, action id, extra) -> IllegalAction
    nb::object make_view;     // (JSON text) -> DuelView
    nb::object fallback;      // (state, name) -> the reference state's attribute
};

using Effects = Vec<std::pair<int8_t, int8_t>, 10>;
using Cards = Vec<int8_t, 24>;

struct Played {
    int8_t seat;
    uint8_t action;
    bool autom;
};
struct Pending {
    int8_t seat, kind, n;
};
struct RoundResult {
    int8_t number, chooser, stat, winner;
    int8_t characters[2];
    int totals[2];
    bool by_charm;
};

// The match: every field of the reference DuelState, in its order.
struct State {
    bool shared = true, draft = false;
    int8_t pile_of[2] = {0, 0};
    Rng rng{0};
    int8_t phase = LINEUP, acting = 0, first_picker = 0;
    Vec<int8_t, 3> characters[2];
    Vec<int8_t, 3> lineups[2];
    int8_t champion[2] = {0, 0};
    Cards hands[2];
    int8_t npiles = 0;
    Cards piles[2];
    Cards discards[2];
    int8_t looked_at[2] = {0, 0};
    int8_t place = 0, place_owner = 0, round_no = 0, chooser = 0, stat = NO_STAT;
    int8_t current[2] = {0, 0};
    int8_t plays[2] = {0, 0};
    bool ability_used[2] = {false, false};
    int8_t passes = 0;
    Cards items[2];
    Vec<std::pair<int8_t, int8_t>, 24> events;
    int modifiers[2] = {0, 0};
    Vec<Pending, 12> pending;
    Vec<Played, 96> log;
    Vec<RoundResult, 4> results;
    Cards revealed[2];
    int8_t wins[2] = {0, 0};
    bool over = false;  // _outcome is set
    int8_t winner = -1;  // -1: a tied match
    int8_t reason = 0;
};

Cards sorted_unique(const Cards &in) {
    Cards out = in;
    std::sort(out.begin(), out.end());
    out.n = int(std::unique(out.begin(), out.end()) - out.begin());
    return out;
}

struct Engine {
    const Tables &t;
    State &s;

    [[noreturn]] void refuse(int code, int action, int extra = 0) { throw Refused{code, action, extra}; }
    [[noreturn]] void not_now(int action) { refuse(NOT_NOW, action, s.phase); }

    Cards &pile(int seat) { return s.piles[s.pile_of[seat]]; }

    // ---------------------------------------------------------------- legal actions
    int legal(int *out) {
        int p = s.acting, n = 0;
        switch (s.phase) {
            case PLAY: {
                out[n++] = 0;
                for (int c : s.hands[p]) out[n++] = act(K_PLAY, c);
                if (!s.ability_used[p])
                    for (int c : s.hands[p]) out[n++] = act(K_ABILITY, c);
                return n;
            }
            case STAT:
                for (int k = 0; k < 3; ++k) out[n++] = act(K_STAT, k);
                return n;
            case CHOICE: {
                int kind = s.pending[0].kind == E_RECOVER ? K_TAKE : K_SWAP;
                for (int c : options()) out[n++] = act(kind, c);
                return n;
            }
            case LINEUP:
                for (int c : s.characters[p])
                    if (!s.lineups[p].contains(int8_t(c))) out[n++] = act(K_LINE, c);
                return n;
            case DRAFT:
                for (int c = 1; c <= NUM_CHARACTERS; ++c)
                    if (!s.characters[0].contains(int8_t(c)) && !s.characters[1].contains(int8_t(c)))
                        out[n++] = act(K_PICK, c);
                return n;
            case CHAMPION:
                for (int c : champion_options(p)) out[n++] = act(K_CHAMPION, c);
                return n;
            default:
                return 0;
        }
    }

    // ---------------------------------------------------------------- one handler per phase
    void apply(int id) {
        int kind = kind_of(id), arg = arg_of(id);
        switch (s.phase) {
            case DRAFT:
                if (kind != K_PICK) not_now(id);
                pick(s.acting, arg, id);
                return;
            case LINEUP:
                if (kind != K_LINE) not_now(id);
                line(s.acting, arg, id);
                return;
            case CHAMPION: {
                if (kind != K_CHAMPION) not_now(id);
                int p = s.acting;
                if (!champion_options(p).contains(int8_t(arg))) refuse(NOT_CHAMPION, id);  // R14
                set_champion(p, arg);
                return;
            }
            case STAT:
                if (kind != K_STAT) not_now(id);
                s.stat = int8_t(arg);
                s.phase = PLAY;
                s.acting = s.chooser;  // R6: starting with the chooser
                advance();
                return;
            case PLAY: {
                int p = s.acting;
                if (kind == K_PASS) {
                    pass_(p, false);
                } else if (kind == K_PLAY) {
                    check_in_hand(p, arg, id);
                    play_support(p, id, arg);
                } else if (kind == K_ABILITY) {
                    if (s.ability_used[p]) refuse(ABILITY_ONCE, id);  // R6
                    check_in_hand(p, arg, id);
                    trigger_ability(p, id, arg);
                } else {
                    not_now(id);
                }
                return;
            }
            case CHOICE:
                if (kind != K_TAKE && kind != K_SWAP) not_now(id);
                choose(s.acting, id, kind, arg);
                return;
            default:
                refuse(MATCH_OVER, id);
        }
    }

    void check_in_hand(int p, int c, int id) {
        if (!s.hands[p].contains(int8_t(c))) refuse(NOT_IN_HAND, id);
    }

    // Draw one card for ``p``; an empty pile draws nothing (R13).
    void draw(int p) {
        int k = s.pile_of[p];
        Cards &pl = s.piles[k];
        if (!pl.n) return;
        s.hands[p].push(pl.pop_back());
        for (int q = 0; q < 2; ++q)
            if (s.looked_at[q] && s.pile_of[q] == k) --s.looked_at[q];
    }

    // ---------------------------------------------------------------- draft and line-up
    void pick(int p, int c, int id) {
        if (s.characters[0].contains(int8_t(c)) || s.characters[1].contains(int8_t(c)))
            refuse(ALREADY_PICKED, id);  // R2
        auto &mine = s.characters[p];
        mine.push(int8_t(c));
        std::sort(mine.begin(), mine.end());  // kept sorted, like dealt characters
        if (s.characters[0].n == 3 && s.characters[1].n == 3) {
            s.phase = LINEUP;
            s.acting = 0;
        } else {
            s.acting = int8_t(1 - p);
        }
    }

    void line(int p, int c, int id) {
        auto &lineup = s.lineups[p];
        if (!s.characters[p].contains(int8_t(c))) refuse(NOT_YOURS, id);
        if (lineup.contains(int8_t(c))) refuse(ALREADY_LINED, id);
        lineup.push(int8_t(c));
        if (lineup.n == 2) {  // the last one has only one place left
            Vec<int8_t, 3> rest;
            for (int8_t x : s.characters[p])
                if (!lineup.contains(x)) rest.push(x);
            for (int8_t x : rest) lineup.push(x);
        }
        if (lineup.n == 3) {
            if (s.lineups[1 - p].n < 3)
                s.acting = int8_t(1 - p);
            else
                lineups_done();
        }
    }

    // R4: each player draws 3 support cards, then round 1 starts (R5).
    void lineups_done() {
        for (int p = 0; p < 2; ++p)
            for (int i = 0, k = HAND_SIZE - s.hands[p].n; i < k; ++i) draw(p);
        start_round();
    }

    // ---------------------------------------------------------------- rounds
    void start_round() {
        int r = s.round_no;
        if (r < ROUNDS) {
            s.current[0] = s.lineups[0][r];
            s.current[1] = s.lineups[1][r];
        } else {
            s.current[0] = s.champion[0];
            s.current[1] = s.champion[1];
        }
        if (r == 0) {
            int a = s.current[0], b = s.current[1];
            // R5: the lower card number chooses; the same number (own decks) by a coin flip.
            s.chooser = int8_t(a < b ? 0 : b < a ? 1 : s.rng.coin());
        } else {
            const RoundResult &last = s.results[s.results.n - 1];
            // R5: after a won round the loser chooses, after a draw the one who did not choose.
            s.chooser = int8_t(last.winner == DRAW ? 1 - last.chooser : 1 - last.winner);
        }
        s.phase = STAT;
        s.acting = s.chooser;
    }

    // The passes the engine makes for a player who can only pass (R6); play ends after two.
    void advance() {
        while (true) {
            if (s.passes >= 2) {
                end_round();
                return;
            }
            int p = s.acting;
            if (s.plays[p] < MAX_PLAYS && s.hands[p].n) return;
            s.log.push({int8_t(p), 0, true});
            ++s.passes;
            s.acting = int8_t(1 - p);
        }
    }

    void pass_(int p, bool autom) {
        s.log.push({int8_t(p), 0, autom});
        ++s.passes;
        s.acting = int8_t(1 - p);
        advance();
    }

    void play_support(int p, int id, int c) {
        from_hand(p, id, c);
        int kind = t.support_kind[c];
        if (kind == ITEM)
            s.items[p].push(int8_t(c));  // R7: equipped to the current character
        else if (kind == PLACE)
            set_place(c, p);  // R8
        else
            s.events.push({int8_t(p), int8_t(c)});  // R9
        played(p, t.support_effects[c]);
    }

    void trigger_ability(int p, int id, int c) {
        // R11: discard a card of your choice, +15 (counted in the total), then the table effects.
        from_hand(p, id, c);
        s.discards[p].push(int8_t(c));
        s.ability_used[p] = true;
        played(p, t.ability_effects[s.current[p]]);
    }

    // Take the action's card out of ``p``'s hand and log the play (R15: plays are public).
    void from_hand(int p, int id, int c) {
        s.hands[p].remove(int8_t(c));
        if (s.revealed[p].n) s.revealed[p].remove(int8_t(c));
        s.log.push({int8_t(p), uint8_t(id), false});
    }

    // One of ``p``'s 2 plays is made (R6): its table effects (R10), then the other player's turn.
    void played(int p, const Effects &effects) {
        ++s.plays[p];
        s.passes = 0;
        if (effects.n) {
            s.pending.clear();
            for (auto [k, n] : effects) s.pending.push({int8_t(p), k, n});
            resolve(p);
        } else {
            s.acting = int8_t(1 - p);
            advance();
        }
    }

    // R8: the old place goes to the discard pile of the player who played it.
    void set_place(int c, int owner) {
        if (s.place) s.discards[s.place_owner].push(s.place);
        s.place = int8_t(c);
        s.place_owner = int8_t(owner);
    }

    // R10: do the queued effects in order; stop at one that needs its player's choice.
    void resolve(int actor) {
        while (s.pending.n) {
            Pending e = s.pending[0];
            int p = e.seat, kind = e.kind, n = e.n;
            if (kind == E_DRAW) {
                for (int i = 0; i < n; ++i) draw(p);
            } else if (kind == E_PEEK) {
                s.looked_at[p] = int8_t(std::max<int>(s.looked_at[p], std::min(n, pile(p).n)));
            } else if (kind == E_BOOST) {
                s.modifiers[p] += n;
            } else if (kind == E_SAP) {
                s.modifiers[1 - p] -= n;
            } else if (kind == E_CLEAR_PLACE) {
                if (s.place) {
                    s.discards[s.place_owner].push(s.place);
                    s.place = 0;
                }
            } else {  // RECOVER, SWAP_PLACE: a choice among the discard pile
                Cards opts = options();
                if (opts.n > 1) {
                    s.phase = CHOICE;
                    s.acting = int8_t(p);
                    return;
                }
                if (opts.n) {  // a single option needs no decision
                    do_choice(p, kind, opts[0]);
                    s.log.push({int8_t(p), uint8_t(act(kind == E_RECOVER ? K_TAKE : K_SWAP, opts[0])), true});
                }
            }
            s.pending.erase_at(0);
        }
        if (s.phase == CHOICE) s.phase = PLAY;
        s.acting = int8_t(1 - actor);
        advance();
    }

    Cards options() {
        const Pending &e = s.pending[0];
        if (e.kind == E_RECOVER) return sorted_unique(s.discards[e.seat]);
        Cards places;
        for (int8_t c : s.discards[e.seat])
            if (t.support_kind[c] == PLACE) places.push(c);
        return sorted_unique(places);
    }

    void do_choice(int p, int kind, int c) {
        s.discards[p].remove(int8_t(c));
        if (kind == E_RECOVER) {
            s.hands[p].push(int8_t(c));
            s.revealed[p].push(int8_t(c));  // it came from a public pile (R15)
        } else {
            set_place(c, p);
        }
    }

    void choose(int p, int id, int kind, int c) {
        int effect = s.pending[0].kind;
        int wanted = effect == E_RECOVER ? K_TAKE : K_SWAP;
        if (kind != wanted) refuse(CHOICE_NOT_NOW, id, wanted);
        if (!options().contains(int8_t(c))) refuse(NOT_IN_DISCARD, id);
        do_choice(p, effect, c);
        s.log.push({int8_t(p), uint8_t(id), false});
        s.pending.erase_at(0);
        resolve(p);
    }

    // R12: printed stat + items + owned place + events + ability + effect modifiers; (0, 0) before the stat.
    std::pair<int, int> totals() const {
        int stat = s.stat;
        if (stat == NO_STAT) return {0, 0};
        int out[2];
        for (int p = 0; p < 2; ++p) {
            int c = s.current[p];
            int base = t.printed[c][stat];
            int total = base + s.modifiers[p];
            if (s.ability_used[p]) total += ABILITY_BONUS;
            for (int x : s.items[p])
                if (t.support_stat[x] == stat)
                    total += t.equips[x][c] ? t.support_bonus[x] * 2 : t.support_bonus[x];  // R7
            if (s.place && s.place_owner == p && t.support_stat[int(s.place)] == stat)
                total += t.support_bonus[int(s.place)];  // R8
            for (auto [q, x] : s.events) {
                (void)q;
                if (t.support_stat[x] != stat) continue;
                if (t.at_most[x] >= 0 && base > t.at_most[x]) continue;
                if (t.at_least[x] >= 0 && base < t.at_least[x]) continue;
                total += t.support_bonus[x];  // R9: for both players
            }
            out[p] = total;
        }
        return {out[0], out[1]};
    }

    void end_round() {
        auto [t0, t1] = totals();
        bool by_charm = false;
        int winner;
        if (t0 != t1) {
            winner = t0 > t1 ? 0 : 1;
        } else {  // R12: the higher printed Charm wins; equal again, a draw
            int c0 = t.charm[s.current[0]], c1 = t.charm[s.current[1]];
            winner = c0 > c1 ? 0 : c1 > c0 ? 1 : DRAW;
            by_charm = winner != DRAW;
        }
        RoundResult r{};
        r.number = int8_t(s.round_no + 1);
        r.chooser = s.chooser;
        r.stat = s.stat;
        r.characters[0] = s.current[0];
        r.characters[1] = s.current[1];
        r.totals[0] = t0;
        r.totals[1] = t1;
        r.winner = int8_t(winner);
        r.by_charm = by_charm;
        s.results.push(r);
        if (winner != DRAW) ++s.wins[winner];
        // R13: items and events to the discard pile of whoever played them; the place stays.
        for (int p = 0; p < 2; ++p)
            for (int8_t x : s.items[p]) s.discards[p].push(x);
        for (auto [p, x] : s.events) s.discards[p].push(x);
        s.items[0].clear();
        s.items[1].clear();
        s.events.clear();
        int w0 = s.wins[0], w1 = s.wins[1];
        if (s.round_no == ROUNDS) {  // R14: the tie-break round decides, or the match is tied
            if (winner == DRAW)
                finish(-1, TIED_MATCH);
            else
                finish(winner, TIEBREAK);
            return;
        }
        if (w0 >= 2 || w1 >= 2) {  // R14: 2 round wins win at once
            finish(w0 >= 2 ? 0 : 1, TWO_WINS);
            return;
        }
        if (s.round_no == ROUNDS - 1 && w0 != w1) {
            finish(w0 > w1 ? 0 : 1, MORE_WINS);
            return;
        }
        // R13: each player draws a card, the round's chooser first.
        draw(s.chooser);
        draw(1 - s.chooser);
        s.stat = NO_STAT;
        s.plays[0] = s.plays[1] = 0;
        s.ability_used[0] = s.ability_used[1] = false;
        s.passes = 0;
        s.modifiers[0] = s.modifiers[1] = 0;
        s.log.clear();
        ++s.round_no;
        if (s.round_no == ROUNDS)
            start_tiebreak();
        else
            start_round();
    }

    void finish(int winner, int reason) {
        s.phase = OVER;
        s.pending.clear();
        s.over = true;
        s.winner = int8_t(winner);
        s.reason = int8_t(reason);
    }

    // ---------------------------------------------------------------- tie-break (R14)
    Vec<int8_t, 3> champion_options(int p) const {
        int best = -1;
        for (int c : s.lineups[p]) best = std::max(best, t.charm[c]);
        Vec<int8_t, 3> out;
        for (int8_t c : s.lineups[p])
            if (t.charm[c] == best) out.push(c);
        std::sort(out.begin(), out.end());
        return out;
    }

    void start_tiebreak() {
        s.champion[0] = s.champion[1] = 0;
        for (int p = 0; p < 2; ++p) {
            auto opts = champion_options(p);
            if (opts.n == 1) s.champion[p] = opts[0];
        }
        next_champion();
    }

    void set_champion(int p, int c) {
        s.champion[p] = int8_t(c);
        next_champion();
    }

    void next_champion() {
        for (int p = 0; p < 2; ++p)
            if (!s.champion[p]) {
                s.phase = CHAMPION;
                s.acting = int8_t(p);
                return;
            }
        start_round();
    }
};


// ------------------------------------------------------------------ views (R15): observe() of state.py, as JSON

struct Json {
    std::string o;
    void raw(const char *x) { o += x; }
    void num(long x) { o += std::to_string(x); }
    void key(const char *k) {
        if (!o.empty() && o.back() != '{' && o.back() != '[') o += ',';
        o += '"';
        o += k;
        o += "\":";
    }
    void item() {
        if (!o.empty() && o.back() != '{' && o.back() != '[') o += ',';
    }
    template <typename V>
    void ints(const V &v) {
        o += '[';
        bool first = true;
        for (int x : v) {
            if (!first) o += ',';
            first = false;
            num(x);
        }
        o += ']';
    }
    void str(const std::string &x) {  // notation: ASCII letters, digits and spaces only
        o += '"';
        o += x;
        o += '"';
    }
    void boolean(bool b) { o += b ? "true" : "false"; }
    void seat_or_null(int s, bool present) {
        if (present)
            num(s);
        else
            raw("null");
    }
};

const char *PHASE_NAME[] = {"draft", "lineup", "champion", "stat", "play", "choice", "over"};

template <typename V>
Vec<int8_t, 24> sorted_copy(const V &v) {
    Vec<int8_t, 24> out;
    for (int x : v) out.push(int8_t(x));
    std::sort(out.begin(), out.end());
    return out;
}

std::string view_json(const Tables &t, State &s, int seat, bool spectator, const char *reason) {
    Engine e{t, s};
    int phase = s.phase;
    bool over = phase == OVER;
    auto totals = over ? std::pair<int, int>{0, 0} : e.totals();
    bool in_round = phase == STAT || phase == PLAY || phase == CHOICE || (over && s.results.n);
    bool tiebreak = s.round_no == ROUNDS;
    Json j;
    j.raw("{");
    j.key("format");
    j.raw("\"flametable-duel-view/1\"");
    j.key("seat");
    j.seat_or_null(seat, !spectator);
    j.key("phase");
    j.raw("\"");
    j.raw(PHASE_NAME[phase]);
    j.raw("\"");
    j.key("to_act");
    j.seat_or_null(s.acting, !over);
    j.key("shared_pile");
    j.boolean(s.shared);
    j.key("draft");
    j.boolean(s.draft);
    j.key("round_number");
    j.num(s.round_no + 1);
    j.key("chooser");
    j.seat_or_null(s.chooser, phase == STAT || phase == PLAY || phase == CHOICE);
    j.key("stat");
    j.num(phase == PLAY || phase == CHOICE ? s.stat : -1);
    j.key("place");
    j.num(s.place);
    j.key("place_owner");
    j.seat_or_null(s.place_owner, s.place != 0);
    j.key("events");
    j.raw("[");
    for (auto [p, c] : s.events) {
        j.item();
        j.raw("{\"seat\":");
        j.num(p);
        j.raw(",\"card\":");
        j.num(c);
        j.raw("}");
    }
    j.raw("]");
    j.key("log");
    j.raw("[");
    for (const Played &x : s.log) {
        j.item();
        j.raw("{\"seat\":");
        j.num(x.seat);
        j.raw(",\"action\":");
        j.str(t.text[x.action]);
        j.raw(",\"auto\":");
        j.boolean(x.autom);
        j.raw("}");
    }
    j.raw("]");
    j.key("passes");
    j.num(s.passes);
    j.key("pending");
    j.raw("[");
    for (const Pending &x : s.pending) {
        j.item();
        j.raw("{\"seat\":");
        j.num(x.seat);
        j.raw(",\"effect\":");
        j.num(x.kind);
        j.raw(",\"n\":");
        j.num(x.n);
        j.raw("}");
    }
    j.raw("]");
    j.key("results");
    j.raw("[");
    for (const RoundResult &r : s.results) {
        j.item();
        j.raw("{\"number\":");
        j.num(r.number);
        j.raw(",\"chooser\":");
        j.num(r.chooser);
        j.raw(",\"stat\":");
        j.num(r.stat);
        j.raw(",\"characters\":");
        j.ints(std::array<int, 2>{r.characters[0], r.characters[1]});
        j.raw(",\"totals\":");
        j.ints(std::array<int, 2>{r.totals[0], r.totals[1]});
        j.raw(",\"winner\":");
        j.num(r.winner);
        j.raw(",\"by_charm\":");
        j.boolean(r.by_charm);
        j.raw("}");
    }
    j.raw("]");
    j.key("seats");
    j.raw("[");
    for (int p = 0; p < 2; ++p) {
        Vec<int8_t, 4> flipped;
        if (phase != DRAFT && phase != LINEUP) {
            int shown = std::min(s.round_no + 1, 3);
            for (int i = 0; i < std::min(shown, s.lineups[p].n); ++i) flipped.push(s.lineups[p][i]);
        }
        auto known = (!spectator && p == seat) || s.draft ? sorted_copy(s.characters[p]) : sorted_copy(flipped);
        int character = in_round ? s.current[p] : 0;
        if (tiebreak && character && !flipped.contains(int8_t(character))) flipped.push(int8_t(character));
        j.item();
        j.raw("{\"flipped\":");
        j.ints(flipped);
        j.raw(",\"known_characters\":");
        j.ints(known);
        j.raw(",\"character\":");
        j.num(character);
        j.raw(",\"hand_size\":");
        j.num(s.hands[p].n);
        j.raw(",\"revealed\":");
        j.ints(s.revealed[p]);
        j.raw(",\"pile_size\":");
        j.num(e.pile(p).n);
        j.raw(",\"discard\":");
        j.ints(s.discards[p]);
        j.raw(",\"items\":");
        j.ints(s.items[p]);
        j.raw(",\"plays\":");
        j.num(s.plays[p]);
        j.raw(",\"ability_used\":");
        j.boolean(s.ability_used[p]);
        j.raw(",\"wins\":");
        j.num(s.wins[p]);
        j.raw(",\"modifier\":");
        j.num(s.modifiers[p]);
        j.raw(",\"total\":");
        j.num(p == 0 ? totals.first : totals.second);
        j.raw("}");
    }
    j.raw("]");
    Vec<int8_t, 24> empty;
    if (!spectator) {
        Cards &pl = e.pile(seat);
        int k = s.looked_at[seat];
        Vec<int8_t, 24> known_top;
        if (k)
            for (int i = pl.n - 1; i >= pl.n - k; --i) known_top.push(pl[i]);
        j.key("hand");
        j.ints(s.hands[seat]);
        j.key("lineup");
        j.ints(s.lineups[seat]);
        j.key("my_characters");
        j.ints(sorted_copy(s.characters[seat]));
        j.key("known_top");
        j.ints(known_top);
        j.key("my_pile");
        j.ints(s.shared ? empty : sorted_copy(pl));
        j.key("champion");
        j.num(phase == CHAMPION ? s.champion[seat] : 0);
        j.key("legal");
        j.raw("[");
        if (!over && s.acting == seat) {
            int ids[64];
            int n = e.legal(ids);
            for (int i = 0; i < n; ++i) {
                j.item();
                j.str(t.text[ids[i]]);
            }
        }
        j.raw("]");
    } else {
        j.raw(",\"hand\":[],\"lineup\":[],\"my_characters\":[],\"known_top\":[],\"my_pile\":[],\"champion\":0,"
              "\"legal\":[]");
    }
    j.key("draft_pool");
    j.raw("[");
    if (phase == DRAFT)
        for (int c = 1; c <= NUM_CHARACTERS; ++c)
            if (!s.characters[0].contains(int8_t(c)) && !s.characters[1].contains(int8_t(c))) {
                j.item();
                j.num(c);
            }
    j.raw("]");
    j.key("outcome");
    if (s.over) {
        j.raw("{\"winner\":");
        j.seat_or_null(s.winner, s.winner >= 0);
        j.raw(",\"reason\":\"");
        j.raw(reason);
        j.raw("\",\"scores\":[");
        j.num(s.wins[0]);
        j.raw(",");
        j.num(s.wins[1]);
        j.raw("]}");
    } else {
        j.raw("null");
    }
    j.raw("}");
    return std::move(j.o);
}

// ------------------------------------------------------------------ observations (issue 26, point 3)

// One seat's view (observe() of state.py) as plain values: what the encoder reads, and nothing else.
struct SeatView {
    Vec<int8_t, 4> flipped;
    Vec<int8_t, 24> known;
    int character, hand_size, pile_size, plays, wins, modifier, total;
    bool ability_used;
    const Cards *revealed, *discard, *items;
};
struct View {
    int seat, phase, round_number, stat, place, passes;
    int to_act, chooser, place_owner;  // -1: null
    bool shared, draft;
    const Vec<Pending, 12> *pending;
    const Vec<Played, 96> *log;
    const Vec<RoundResult, 4> *results;
    const Vec<std::pair<int8_t, int8_t>, 24> *events;
    bool over;
    int winner;  // -1: none (a tied match)
    SeatView seats[2];
    const Cards *hand;
    const Vec<int8_t, 3> *lineup;
    int champion;
    Vec<int8_t, 24> known_top, my_pile;
    Vec<int8_t, NUM_CHARACTERS> draft_pool;
};

View seat_view(const Tables &t, State &s, int seat) {
    Engine e{t, s};
    View v{};
    int phase = v.phase = s.phase;
    bool over = v.over = phase == OVER;
    auto totals = over ? std::pair<int, int>{0, 0} : e.totals();
    bool in_round = phase == STAT || phase == PLAY || phase == CHOICE || (over && s.results.n);
    v.seat = seat;
    v.to_act = over ? -1 : s.acting;
    v.shared = s.shared;
    v.draft = s.draft;
    v.round_number = s.round_no + 1;
    v.chooser = phase == STAT || phase == PLAY || phase == CHOICE ? s.chooser : -1;
    v.stat = phase == PLAY || phase == CHOICE ? s.stat : -1;
    v.place = s.place;
    v.place_owner = s.place ? s.place_owner : -1;
    v.events = &s.events;
    v.log = &s.log;
    v.passes = s.passes;
    v.pending = &s.pending;
    v.results = &s.results;
    v.winner = s.over ? s.winner : -1;
    for (int p = 0; p < 2; ++p) {
        SeatView &i = v.seats[p];
        if (phase != DRAFT && phase != LINEUP) {
            int shown = std::min(s.round_no + 1, 3);
            for (int k = 0; k < std::min(shown, s.lineups[p].n); ++k) i.flipped.push(s.lineups[p][k]);
        }
        i.known = p == seat || s.draft ? sorted_copy(s.characters[p]) : sorted_copy(i.flipped);
        i.character = in_round ? s.current[p] : 0;
        if (s.round_no == ROUNDS && i.character && !i.flipped.contains(int8_t(i.character)))
            i.flipped.push(int8_t(i.character));
        i.hand_size = s.hands[p].n;
        i.revealed = &s.revealed[p];
        i.pile_size = e.pile(p).n;
        i.discard = &s.discards[p];
        i.items = &s.items[p];
        i.plays = s.plays[p];
        i.ability_used = s.ability_used[p];
        i.wins = s.wins[p];
        i.modifier = s.modifiers[p];
        i.total = p == 0 ? totals.first : totals.second;
    }
    v.hand = &s.hands[seat];
    v.lineup = &s.lineups[seat];
    Cards &pl = e.pile(seat);
    for (int k = 0, n = s.looked_at[seat]; k < n; ++k) v.known_top.push(pl[pl.n - 1 - k]);
    if (!s.shared) v.my_pile = sorted_copy(pl);
    v.champion = phase == CHAMPION ? s.champion[seat] : 0;
    if (phase == DRAFT)
        for (int c = 1; c <= NUM_CHARACTERS; ++c)
            if (!s.characters[0].contains(int8_t(c)) && !s.characters[1].contains(int8_t(c)))
                v.draft_pool.push(int8_t(c));
    return v;
}

// DuelObservation's layout (observation.py): its offsets, in the order DuelObservation.native_layout gives them.
struct Layout {
    int phase, to_act, mode, round, chooser, stat, place, place_owner, passes, pending, pending_first, last, log,
        results, outcome, pool, hand, lineup, champion, top_first, top, top_n, my_pile, size;
    int seat[2][15];  // per seat (mine, the opponent's): SEAT_PARTS' offsets, card parts less one
    double hand_scale;
    double printed[NUM_CHARACTERS + 1][3];  // printed stats / 100, clipped to 2
};

constexpr double STAT_SCALE = 100.0, STAT_CLIP = 2.0;
constexpr int ROUND_CELLS = 12, LOG_SCALE = 16, NK = 7;
inline double clip(double x) { return x > STAT_CLIP ? STAT_CLIP : x < -STAT_CLIP ? -STAT_CLIP : x; }

// DuelObservation.encode(view, out), from the seat's view as the state gives it.
void encode(const View &v, const Layout &L, float *out) {
    std::fill(out, out + L.size, 0.0f);
    int me = v.seat;
    auto one = [&](int i) { out[i] = 1.0f; };
    auto val = [&](int i, double x) { out[i] = float(x); };
    one(L.phase + v.phase);
    one(L.round + v.round_number - 1);
    val(L.passes, v.passes / 2.0);
    if (v.to_act >= 0) one(L.to_act + (v.to_act != me));
    if (v.shared) one(L.mode);
    if (v.draft) one(L.mode + 1);
    if (v.chooser >= 0) one(L.chooser + (v.chooser != me));
    if (v.stat >= 0) one(L.stat + v.stat);
    if (v.place) {
        one(L.place + v.place - 1);
        if (v.place_owner >= 0) one(L.place_owner + (v.place_owner != me));
    }
    if (v.pending->n) {
        for (const Pending &x : *v.pending) one(L.pending + (x.seat != me) * NK + x.kind);
        one(L.pending_first + (*v.pending)[0].kind);
    }
    if (v.log->n) {
        const Played &last = (*v.log)[v.log->n - 1];
        one(L.last + (last.autom ? 2 : (last.seat != me)));
        one(L.last + 3 + kind_of(last.action));
        val(L.log, std::min(double(v.log->n) / LOG_SCALE, 1.0));
    }
    for (const RoundResult &r : *v.results) {
        int a = L.results + (r.number - 1) * ROUND_CELLS;
        one(a);
        one(a + 1 + (r.chooser != me));
        one(a + 3 + r.stat);
        one(r.winner == DRAW ? a + 8 : a + 6 + (r.winner != me));
        if (r.by_charm) one(a + 9);
        val(a + 10, clip(r.totals[me] / STAT_SCALE));
        val(a + 11, clip(r.totals[1 - me] / STAT_SCALE));
    }
    if (v.over) {
        one(L.outcome);
        if (v.winner >= 0) one(L.outcome + 1 + (v.winner != me));
    }
    for (int c : v.draft_pool) one(L.pool - 1 + c);
    for (int side = 0; side < 2; ++side) {
        int p = side == 0 ? me : 1 - me;
        const int *o = L.seat[side];
        const SeatView &i = v.seats[p];
        for (int c : i.flipped) one(o[0] + c);
        for (int c : i.known) one(o[1] + c);
        if (i.character) {
            one(o[2] + i.character);
            for (int k = 0; k < 3; ++k) val(o[3] + k, L.printed[i.character][k]);
        }
        for (int x : *i.revealed) one(o[5] + x);
        for (int x : *i.discard) one(o[7] + x);
        for (int x : *i.items) one(o[8] + x);
        if (i.ability_used) one(o[11]);
        val(o[4], std::min(i.hand_size / L.hand_scale, 1.0));
        val(o[6], double(i.pile_size) / NUM_SUPPORTS);
        val(o[10], double(i.plays) / MAX_PLAYS);
        val(o[12], double(i.wins) / ROUNDS);
        val(o[13], clip(i.modifier / STAT_SCALE));
        val(o[14], clip(i.total / STAT_SCALE));
    }
    for (auto [p, x] : *v.events) one((p == me ? L.seat[0][9] : L.seat[1][9]) + x);
    for (int x : *v.hand) one(L.hand - 1 + x);
    for (int k = 0; k < v.lineup->n; ++k) one(L.lineup - 1 + k * NUM_CHARACTERS + (*v.lineup)[k]);
    if (v.champion) one(L.champion + v.champion - 1);
    if (v.known_top.n) {
        one(L.top_first + v.known_top[0] - 1);
        for (int x : v.known_top) one(L.top - 1 + x);
        val(L.top_n, double(v.known_top.n) / NUM_SUPPORTS);
    }
    for (int x : v.my_pile) one(L.my_pile - 1 + x);
}

struct DuelEncoder {
    Layout L;
};

DuelEncoder make_encoder(nb::handle offsets, nb::handle seats, double hand_scale, nb::handle printed) {
    DuelEncoder e{};
    int *f = &e.L.phase;
    if (nb::len(offsets) != 24) throw nb::value_error("24 offsets expected");
    for (int i = 0; i < 24; ++i) f[i] = nb::cast<int>(offsets[i]);
    for (int side = 0; side < 2; ++side)
        for (int k = 0; k < 15; ++k) e.L.seat[side][k] = nb::cast<int>(seats[side][k]);
    e.L.hand_scale = hand_scale;
    for (int c = 0; c <= NUM_CHARACTERS; ++c)
        for (int k = 0; k < 3; ++k) e.L.printed[c][k] = nb::cast<double>(printed[c][k]);
    return e;
}

using Obs = nb::ndarray<float, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

const char *REASON_VALUE[] = {"two_round_wins", "more_round_wins", "tiebreak_round", "tied_match"};

// ------------------------------------------------------------------ the Python classes

struct DuelTables {
    std::shared_ptr<Tables> t;
};

PyObject *str_id = nullptr;

struct DuelState {
    std::shared_ptr<const Tables> t;
    State s;
    nb::object outcome_cache;

    nb::object legal_actions() const {
        int ids[64];
        State &st = const_cast<State &>(s);
        int n = Engine{*t, st}.legal(ids);
        PyObject *list = PyList_New(n);
        if (!list) throw nb::python_error();
        for (int i = 0; i < n; ++i) {
            PyObject *a = t->action[ids[i]];
            Py_INCREF(a);
            PyList_SET_ITEM(list, i, a);
        }
        return nb::steal(list);
    }

    void apply(nb::handle action) {
        long id = t->find(action.ptr());
        if (id < 0) {  // an equal action that is not one of the game's own values: by its id
            PyObject *id_obj = PyObject_GetAttr(action.ptr(), str_id);
            if (!id_obj) throw nb::python_error();
            id = PyLong_AsLong(id_obj);
            Py_DECREF(id_obj);
            if (id == -1 && PyErr_Occurred()) throw nb::python_error();
        }
        if (id < 0 || id >= NUM_ACTIONS) throw nb::value_error("not a Flame Duel action");
        try {
            Engine{*t, s}.apply(int(id));
        } catch (const Refused &r) {
            nb::object exc = t->illegal(r.code, r.action, r.extra);
            PyErr_SetObject(reinterpret_cast<PyObject *>(Py_TYPE(exc.ptr())), exc.ptr());
            throw nb::python_error();
        }
    }

    nb::object to_act() const {
        if (s.phase == OVER) return nb::none();
        return nb::steal(PyLong_FromLong(s.acting));
    }

    nb::object outcome() {
        if (!s.over) return nb::none();
        if (!outcome_cache.is_valid() || outcome_cache.is_none())
            outcome_cache = t->make_outcome(s.winner >= 0 ? nb::object(nb::int_(int(s.winner))) : nb::none(),
                                            int(s.reason), int(s.wins[0]), int(s.wins[1]));
        return outcome_cache;
    }

    DuelState clone() const { return DuelState{t, s, outcome_cache}; }

    std::string json(nb::handle seat) {
        if (seat.is_none()) return view_json(*t, s, 0, true, REASON_VALUE[s.reason]);
        if (!PyLong_CheckExact(seat.ptr())) throw nb::value_error("seat");
        long v = PyLong_AsLong(seat.ptr());
        if (v != 0 && v != 1) throw nb::value_error("seat");
        return view_json(*t, s, int(v), false, REASON_VALUE[s.reason]);
    }
};

template <typename V>
void fill(V &out, nb::handle src) {
    out.clear();
    for (nb::handle x : src) out.push(nb::cast<int>(x));
}

nb::list ints_list(const int8_t *b, int n) {
    nb::list out;
    for (int i = 0; i < n; ++i) out.append(int(b[i]));
    return out;
}
template <typename V>
nb::list as_list(const V &v) {
    nb::list out;
    for (auto x : v) out.append(int(x));
    return out;
}

// The reference engine's fields (DuelState of state.py) from this state: a dict of plain values.
nb::dict fields(const DuelState &d) {
    const State &s = d.s;
    nb::dict f;
    f["shared"] = s.shared;
    f["draft"] = s.draft;
    f["pile_of"] = nb::make_tuple(int(s.pile_of[0]), int(s.pile_of[1]));
    f["rng_state"] = s.rng.state;
    f["phase"] = int(s.phase);
    f["acting"] = int(s.acting);
    f["first_picker"] = int(s.first_picker);
    auto pair_of = [](const auto &a) {
        nb::list l;
        l.append(as_list(a[0]));
        l.append(as_list(a[1]));
        return l;
    };
    f["characters"] = pair_of(s.characters);
    f["lineups"] = pair_of(s.lineups);
    f["champion"] = ints_list(s.champion, 2);
    f["hands"] = pair_of(s.hands);
    nb::list piles;
    for (int i = 0; i < s.npiles; ++i) piles.append(as_list(s.piles[i]));
    f["piles"] = piles;
    f["discards"] = pair_of(s.discards);
    f["looked_at"] = ints_list(s.looked_at, 2);
    f["place"] = int(s.place);
    f["place_owner"] = int(s.place_owner);
    f["round_no"] = int(s.round_no);
    f["chooser"] = int(s.chooser);
    f["stat"] = int(s.stat);
    f["current"] = ints_list(s.current, 2);
    f["plays"] = ints_list(s.plays, 2);
    nb::list used;
    used.append(s.ability_used[0]);
    used.append(s.ability_used[1]);
    f["ability_used"] = used;
    f["passes"] = int(s.passes);
    f["items"] = pair_of(s.items);
    nb::list events;
    for (auto [p, c] : s.events) events.append(nb::make_tuple(int(p), int(c)));
    f["events"] = events;
    nb::list mods;
    mods.append(s.modifiers[0]);
    mods.append(s.modifiers[1]);
    f["modifiers"] = mods;
    nb::list pending;
    for (const Pending &x : s.pending) pending.append(nb::make_tuple(int(x.seat), int(x.kind), int(x.n)));
    f["pending"] = pending;
    nb::list log;
    for (const Played &x : s.log) log.append(nb::make_tuple(int(x.seat), int(x.action), x.autom));
    f["log"] = log;
    nb::list results;
    for (const RoundResult &r : s.results)
        results.append(nb::make_tuple(int(r.number), int(r.chooser), int(r.stat),
                                      nb::make_tuple(int(r.characters[0]), int(r.characters[1])),
                                      nb::make_tuple(r.totals[0], r.totals[1]), int(r.winner), r.by_charm));
    f["results"] = results;
    f["revealed"] = pair_of(s.revealed);
    f["wins"] = ints_list(s.wins, 2);
    f["over"] = s.over;
    f["winner"] = int(s.winner);
    f["reason"] = int(s.reason);
    return f;
}

// A state from the fields of a reference one (what fields() gives back, from Python's DuelState).
DuelState from_fields(const DuelTables &tables, nb::dict f) {
    DuelState d{tables.t, State{}, nb::none()};
    State &s = d.s;
    s.shared = nb::cast<bool>(f["shared"]);
    s.draft = nb::cast<bool>(f["draft"]);
    auto pile_of = f["pile_of"];
    s.pile_of[0] = int8_t(nb::cast<int>(pile_of[0]));
    s.pile_of[1] = int8_t(nb::cast<int>(pile_of[1]));
    s.rng.state = nb::cast<uint64_t>(f["rng_state"]);
    s.phase = int8_t(nb::cast<int>(f["phase"]));
    s.acting = int8_t(nb::cast<int>(f["acting"]));
    s.first_picker = int8_t(nb::cast<int>(f["first_picker"]));
    auto pair_in = [&](auto &dst, const char *name) {
        nb::handle v = f[name];
        fill(dst[0], v[0]);
        fill(dst[1], v[1]);
    };
    auto two = [&](auto &dst, const char *name) {
        nb::handle v = f[name];
        dst[0] = nb::cast<int>(v[0]);
        dst[1] = nb::cast<int>(v[1]);
    };
    pair_in(s.characters, "characters");
    pair_in(s.lineups, "lineups");
    two(s.champion, "champion");
    pair_in(s.hands, "hands");
    nb::handle piles = f["piles"];
    s.npiles = int8_t(nb::len(piles));
    if (s.npiles > 2) throw nb::value_error("at most two piles");
    for (int i = 0; i < s.npiles; ++i) fill(s.piles[i], piles[i]);
    pair_in(s.discards, "discards");
    two(s.looked_at, "looked_at");
    s.place = int8_t(nb::cast<int>(f["place"]));
    s.place_owner = int8_t(nb::cast<int>(f["place_owner"]));
    s.round_no = int8_t(nb::cast<int>(f["round_no"]));
    s.chooser = int8_t(nb::cast<int>(f["chooser"]));
    s.stat = int8_t(nb::cast<int>(f["stat"]));
    two(s.current, "current");
    two(s.plays, "plays");
    nb::handle used = f["ability_used"];
    s.ability_used[0] = nb::cast<bool>(used[0]);
    s.ability_used[1] = nb::cast<bool>(used[1]);
    s.passes = int8_t(nb::cast<int>(f["passes"]));
    pair_in(s.items, "items");
    for (nb::handle e : f["events"]) s.events.push({int8_t(nb::cast<int>(e[0])), int8_t(nb::cast<int>(e[1]))});
    two(s.modifiers, "modifiers");
    for (nb::handle e : f["pending"])
        s.pending.push({int8_t(nb::cast<int>(e[0])), int8_t(nb::cast<int>(e[1])), int8_t(nb::cast<int>(e[2]))});
    for (nb::handle e : f["log"])
        s.log.push({int8_t(nb::cast<int>(e[0])), uint8_t(nb::cast<int>(e[1])), nb::cast<bool>(e[2])});
    for (nb::handle e : f["results"]) {
        RoundResult r{};
        r.number = int8_t(nb::cast<int>(e[0]));
        r.chooser = int8_t(nb::cast<int>(e[1]));
        r.stat = int8_t(nb::cast<int>(e[2]));
        r.characters[0] = int8_t(nb::cast<int>(e[3][0]));
        r.characters[1] = int8_t(nb::cast<int>(e[3][1]));
        r.totals[0] = nb::cast<int>(e[4][0]);
        r.totals[1] = nb::cast<int>(e[4][1]);
        r.winner = int8_t(nb::cast<int>(e[5]));
        r.by_charm = nb::cast<bool>(e[6]);
        s.results.push(r);
    }
    pair_in(s.revealed, "revealed");
    two(s.wins, "wins");
    s.over = nb::cast<bool>(f["over"]);
    s.winner = int8_t(nb::cast<int>(f["winner"]));
    s.reason = int8_t(nb::cast<int>(f["reason"]));
    return d;
}

// A brought own deck (R2): its characters and support cards; none (``given`` false): dealt at random.
struct Deck {
    bool given = false;
    Vec<int8_t, 3> characters;
    Cards supports;
};

// GameState.new_match without a setup (game.py): the seeded deal. ``seed`` is Rng's seed reduced to 64 bits;
// ``decks``: own decks only. ``s`` is a blank State{}.
void deal(State &s, bool shared, bool draft, uint64_t seed, const Deck *decks) {
    s.shared = shared;
    s.draft = draft;
    s.pile_of[0] = 0;
    s.pile_of[1] = shared ? 0 : 1;
    s.rng.state = mix(seed);
    Rng &rng = s.rng;
    s.first_picker = int8_t(rng.coin());
    if (shared) {
        Cards pile;
        for (int c = 1; c <= NUM_SUPPORTS; ++c) pile.push(int8_t(c));
        rng.shuffle(pile);
        s.npiles = 1;
        s.piles[0] = pile;
        if (draft) {
            s.phase = DRAFT;
            s.acting = s.first_picker;
        } else {
            Vec<int8_t, NUM_CHARACTERS> all;
            for (int c = 1; c <= NUM_CHARACTERS; ++c) all.push(int8_t(c));
            auto dealt = rng.sample(all, 6);
            for (int i = 0; i < 3; ++i) {
                s.characters[0].push(dealt[i]);
                s.characters[1].push(dealt[i + 3]);
            }
            std::sort(s.characters[0].begin(), s.characters[0].end());
            std::sort(s.characters[1].begin(), s.characters[1].end());
            s.phase = LINEUP;
            s.acting = 0;
        }
        return;
    }
    Cards sups[2];
    for (int p = 0; p < 2; ++p) {
        if (!decks[p].given) {  // random_deck (game.py): a random valid own deck (R2)
            Vec<int8_t, NUM_CHARACTERS> all_chars;
            for (int c = 1; c <= NUM_CHARACTERS; ++c) all_chars.push(int8_t(c));
            Vec<int8_t, NUM_SUPPORTS> all_sups;
            for (int c = 1; c <= NUM_SUPPORTS; ++c) all_sups.push(int8_t(c));
            auto chars = rng.sample(all_chars, 3);
            int k = 8 + rng.below(5);
            auto picked = rng.sample(all_sups, k);
            for (int8_t c : chars) s.characters[p].push(c);
            for (int8_t c : picked) sups[p].push(c);
            std::sort(sups[p].begin(), sups[p].end());
        } else {
            s.characters[p] = decks[p].characters;
            sups[p] = decks[p].supports;
        }
        std::sort(s.characters[p].begin(), s.characters[p].end());
    }
    s.npiles = 2;
    for (int p = 0; p < 2; ++p) {
        s.piles[p] = sups[p];
        rng.shuffle(s.piles[p]);
    }
    s.phase = LINEUP;
    s.acting = 0;
}

DuelState new_match(const DuelTables &tables, bool shared, bool draft, uint64_t seed, nb::handle decks) {
    DuelState d{tables.t, State{}, nb::none()};
    Deck given[2];
    if (!shared)
        for (int p = 0; p < 2; ++p) {
            nb::handle deck = decks[p];
            if (deck.is_none()) continue;
            given[p].given = true;
            fill(given[p].characters, deck[0]);
            fill(given[p].supports, deck[1]);
        }
    deal(d.s, shared, draft, seed, given);
    return d;
}

// ------------------------------------------------------------------ the batch API (issue 26, point 4)

// N matches stepped in one call, each reset with its next seed when it ends: slot i plays the seeds
// first_seed + i, first_seed + i + N, first_seed + i + 2N... (own decks: dealt at random).
struct DuelBatch {
    std::shared_ptr<const Tables> t;
    bool shared, draft;
    int n;
    std::vector<State> states;
    std::vector<uint64_t> seeds;
    int threads = 1;  // the matches are split among this many threads in each call (1: the caller's only)

    // f(lo, hi) over [0, n) in ``threads`` contiguous parts, each on its own thread (the first on this one); the
    // matches share nothing mutable, so the results are those of one thread.
    template <typename F>
    void in_parallel(F &&f) {
        int k = std::max(1, std::min(threads, n));
        if (k == 1) {
            f(0, n);
            return;
        }
        std::vector<std::thread> pool;
        std::vector<std::exception_ptr> errors(static_cast<size_t>(k));
        for (int j = 1; j < k; ++j)
            pool.emplace_back([&, j] {
                try {
                    f(n * j / k, n * (j + 1) / k);
                } catch (...) {
                    errors[size_t(j)] = std::current_exception();
                }
            });
        try {
            f(0, n / k);
        } catch (...) {
            errors[0] = std::current_exception();
        }
        for (auto &th : pool) th.join();
        for (auto &e : errors)
            if (e) std::rethrow_exception(e);
    }

    DuelBatch(const DuelTables &tables, int count, bool shared_, bool draft_, uint64_t first_seed)
        : t(tables.t), shared(shared_), draft(draft_), n(count), states(size_t(count)), seeds(size_t(count)) {
        if (count < 1) throw nb::value_error("a batch holds at least one match");
        Deck none[2];
        for (int i = 0; i < n; ++i) {
            seeds[i] = first_seed + uint64_t(i);
            deal(states[i], shared, draft, seeds[i], none);
        }
    }

    void write_mask(int i, uint8_t *mask, int8_t *to_act) {
        uint8_t *row = mask + size_t(i) * NUM_ACTIONS;
        std::fill(row, row + NUM_ACTIONS, uint8_t(0));
        State &s = states[i];
        int ids[64];
        int k = Engine{*t, s}.legal(ids);
        for (int j = 0; j < k; ++j) row[ids[j]] = 1;
        to_act[i] = int8_t(s.phase == OVER ? -1 : s.acting);
    }

    using Ids = nb::ndarray<const int64_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
    using Mask = nb::ndarray<uint8_t, nb::ndim<2>, nb::c_contig, nb::device::cpu>;
    using Rewards = nb::ndarray<float, nb::ndim<2>, nb::c_contig, nb::device::cpu>;
    using Flags = nb::ndarray<bool, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
    using Seats = nb::ndarray<int8_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

    void check(const Mask &mask, const Seats &to_act) const {
        if (mask.shape(0) != size_t(n) || mask.shape(1) != size_t(NUM_ACTIONS) || to_act.shape(0) != size_t(n))
            throw nb::value_error("the batch's arrays: mask[N, 187], to_act[N]");
    }

    void observe(Mask mask, Seats to_act) {
        check(mask, to_act);
        for (int i = 0; i < n; ++i) write_mask(i, mask.data(), to_act.data());
    }

    // Every match plays its action (for the seat to act); a finished one gives its rewards (+1 win, -1 loss, 0 a
    // draw, as the learning environments), done, and starts its next match. The masks and seats to act are
    // then the matches' now. An illegal action raises the reference's IllegalAction before any match moves.
    void step(Ids actions, Mask mask, Rewards rewards, Flags dones, Seats to_act) {
        check(mask, to_act);
        if (actions.shape(0) != size_t(n) || rewards.shape(0) != size_t(n) || rewards.shape(1) != 2 ||
            dones.shape(0) != size_t(n))
            throw nb::value_error("the batch's arrays: actions[N], rewards[N, 2], dones[N]");
        const int64_t *a = actions.data();
        int bad = -1;
        {
            nb::gil_scoped_release released;
            for (int i = 0; i < n && bad < 0; ++i) {
                int ids[64];
                int k = states[i].phase == OVER ? 0 : Engine{*t, states[i]}.legal(ids);
                if (a[i] < 0 || a[i] >= NUM_ACTIONS || std::find(ids, ids + k, int(a[i])) == ids + k) bad = i;
            }
            if (bad < 0) {
                float *r = rewards.data();
                bool *d = dones.data();
                uint8_t *mk = mask.data();
                int8_t *ta = to_act.data();
                in_parallel([&](int lo, int hi) {
                    Deck none[2];
                    for (int i = lo; i < hi; ++i) {
                        State &s = states[i];
                        Engine{*t, s}.apply(int(a[i]));
                        r[2 * i] = r[2 * i + 1] = 0.0f;
                        d[i] = s.over;
                        if (s.over) {
                            if (s.winner >= 0) {
                                r[2 * i + s.winner] = 1.0f;
                                r[2 * i + 1 - s.winner] = -1.0f;
                            }
                            seeds[i] += uint64_t(n);
                            s = State{};
                            deal(s, shared, draft, seeds[i], none);
                        }
                        write_mask(i, mk, ta);
                    }
                });
            }
        }
        if (bad >= 0) {
            if (a[bad] < 0 || a[bad] >= NUM_ACTIONS) throw nb::value_error("an action id is 0 to 186");
            State copy = states[bad];
            try {
                Engine{*t, copy}.apply(int(a[bad]));
            } catch (const Refused &r) {
                nb::object exc = t->illegal(r.code, r.action, r.extra);
                PyErr_SetObject(reinterpret_cast<PyObject *>(Py_TYPE(exc.ptr())), exc.ptr());
                throw nb::python_error();
            }
        }
    }

    DuelState state(int i) const {
        if (i < 0 || i >= n) throw nb::index_error("no such match in the batch");
        return DuelState{t, states[size_t(i)], nb::none()};
    }
    uint64_t seed(int i) const {
        if (i < 0 || i >= n) throw nb::index_error("no such match in the batch");
        return seeds[size_t(i)];
    }
};

// Each match's observation for its seat to act (a finished match's: the seat that would act, 0), into obs[N, L].
void batch_encode(DuelBatch &b, const DuelEncoder &enc, nb::ndarray<float, nb::ndim<2>, nb::c_contig, nb::device::cpu> obs) {
    if (obs.shape(0) != size_t(b.n) || obs.shape(1) != size_t(enc.L.size))
        throw nb::value_error("the batch's observations: obs[N, the layout's length]");
    nb::gil_scoped_release released;
    float *o = obs.data();
    b.in_parallel([&](int lo, int hi) {
        for (int i = lo; i < hi; ++i) {
            State &s = b.states[size_t(i)];
            encode(seat_view(*b.t, s, s.acting), enc.L, o + size_t(i) * size_t(enc.L.size));
        }
    });
}

DuelTables make_tables(nb::handle printed, nb::handle support_kind, nb::handle support_stat, nb::handle support_bonus,
                       nb::handle equips_to, nb::handle at_most, nb::handle at_least, nb::handle support_effects,
                       nb::handle ability_effects, nb::handle actions, nb::handle texts, nb::object make_outcome,
                       nb::object illegal, nb::object make_view, nb::object fallback) {
    auto t = std::make_shared<Tables>();
    if (nb::len(printed) != NUM_CHARACTERS + 1 || nb::len(support_kind) != NUM_SUPPORTS + 1 ||
        nb::len(actions) != NUM_ACTIONS || nb::len(texts) != NUM_ACTIONS)
        throw nb::value_error("DuelTables: tables of 34 characters, 22 supports and 187 actions expected");
    for (int c = 0; c <= NUM_CHARACTERS; ++c) {
        for (int k = 0; k < 3; ++k) t->printed[c][k] = nb::cast<int>(printed[c][k]);
        t->charm[c] = t->printed[c][2];
        t->ability_effects[c].clear();
        for (nb::handle e : ability_effects[c])
            t->ability_effects[c].push({int8_t(nb::cast<int>(e[0])), int8_t(nb::cast<int>(e[1]))});
    }
    for (int x = 0; x <= NUM_SUPPORTS; ++x) {
        t->support_kind[x] = nb::cast<int>(support_kind[x]);
        t->support_stat[x] = nb::cast<int>(support_stat[x]);
        t->support_bonus[x] = nb::cast<int>(support_bonus[x]);
        t->at_most[x] = nb::cast<int>(at_most[x]);
        t->at_least[x] = nb::cast<int>(at_least[x]);
        for (int c = 0; c <= NUM_CHARACTERS; ++c) t->equips[x][c] = false;
        for (nb::handle c : equips_to[x]) t->equips[x][nb::cast<int>(c)] = true;
        t->support_effects[x].clear();
        for (nb::handle e : support_effects[x])
            t->support_effects[x].push({int8_t(nb::cast<int>(e[0])), int8_t(nb::cast<int>(e[1]))});
    }
    t->actions = nb::borrow(actions);
    for (int i = 0; i < NUM_ACTIONS; ++i) {
        t->action[i] = nb::handle(actions[i]).ptr();
        t->index(t->action[i], i);
        t->text[i] = nb::cast<std::string>(texts[i]);
    }
    t->make_outcome = make_outcome;
    t->illegal = illegal;
    t->make_view = make_view;
    t->fallback = fallback;
    return DuelTables{t};
}


// ------------------------------------------------------------------ the ISMCTS bot's inner loop (issue 26, P3)
//
// What bots/ismcts.py's IsmctsBot does per iteration, here for the native engine: a determinisation (the per-sample
// half of games/duel/determinize.py's Sampler.__call__; the view's bookkeeping, Sampler.__init__, is spec_of_view,
// which reads the seat's DuelView and nothing else, so nothing here ever sees the real state), the descent and expansion of the
// tree, the playout (uniformly random, or games/duel/bots.py's playout_action) and the backup. Each function
// draws from the generator exactly as its Python original does, so that the same seed gives the same samples,
// playouts and choices: the tests (tests/games/duel/test_native_search.py) hold them to it.

// Sampler.__init__'s results: what one seat's view gives (the base state: a blank state filled from the view).
struct SamplerSpec {
    State base;
    int me = 0, o = 1;
    Vec<int8_t, 3> theirs_known, flipped;
    Vec<int8_t, NUM_CHARACTERS> char_pool;
    int n_unknown_chars = 0;
    bool draft_phase = false, their_lineup_done = false, champion_phase = false, champion_chosen = false;
    int hand_o = 0;
    Cards revealed_o, known_top, unknown, my_below;
    int n_unknown = 0;
};

// Sampler.__call__: one full state consistent with the view.
State sample(const Tables &t, const SamplerSpec &sp, Rng &rng) {
    State s = sp.base;
    int me = sp.me, o = sp.o;
    s.rng.state = mix(rng.next() >> 32);  // st.rng = Rng(rng.next32())
    Vec<int8_t, 3> theirs = sp.theirs_known;
    if (sp.n_unknown_chars)
        for (int8_t c : rng.sample(sp.char_pool, sp.n_unknown_chars)) theirs.push(c);
    auto &chars = s.characters[o];
    chars = theirs;
    for (int i = 1; i < chars.n; ++i)  // sorted (at most 3: by insertion)
        for (int j = i; j > 0 && chars[j - 1] > chars[j]; --j) std::swap(chars[j - 1], chars[j]);
    if (!sp.draft_phase && sp.their_lineup_done) {
        Vec<int8_t, 3> rest;
        for (int8_t c : theirs)
            if (!sp.flipped.contains(c)) rest.push(c);
        rng.shuffle(rest);
        s.lineups[o] = sp.flipped;
        for (int8_t c : rest) s.lineups[o].push(c);
    }
    if (sp.champion_phase) {
        int best = -1;
        for (int8_t c : s.lineups[o]) best = std::max(best, t.charm[c]);
        Vec<int8_t, 3> options;
        for (int8_t c : s.lineups[o])
            if (t.charm[c] == best) options.push(c);
        if (options.n == 1 || sp.champion_chosen) s.champion[o] = options[rng.below(options.n)];
    }
    int k = sp.hand_o - sp.revealed_o.n;
    s.hands[o] = sp.revealed_o;
    if (s.shared) {
        Cards unknown = sp.unknown;
        rng.shuffle(unknown);
        int in_hand = std::min(k, int(unknown.n));  // the hand: its revealed cards, then unknown[:k]
        if (s.hands[o].n + in_hand > 24 || unknown.n - in_hand + sp.known_top.n > 24)
            throw std::length_error("flametable native duel: a list outgrew its capacity");
        std::copy(unknown.v, unknown.v + in_hand, s.hands[o].v + s.hands[o].n);
        s.hands[o].n += in_hand;
        Cards &pile = s.piles[0];  // unknown[k:], then the known top, top last
        pile.n = unknown.n - in_hand;
        std::copy(unknown.v + in_hand, unknown.v + unknown.n, pile.v);
        for (int i = sp.known_top.n - 1; i >= 0; --i) pile.v[pile.n++] = sp.known_top[i];
        s.npiles = 1;
    } else {
        Cards below = sp.my_below;
        rng.shuffle(below);
        for (int i = sp.known_top.n - 1; i >= 0; --i) below.push(sp.known_top[i]);
        Cards drawn = rng.sample(sp.unknown, sp.n_unknown);
        Cards theirs_pile;
        for (int i = 0; i < drawn.n; ++i) (i < k ? s.hands[o] : theirs_pile).push(drawn[i]);
        s.npiles = 2;
        s.piles[me] = below;
        s.piles[o] = theirs_pile;
    }
    return s;
}

// ---- the sensible player's playout policy (games/duel/bots.py: playout_action and its helpers)

constexpr int EXPLORE = 16;

int place_edge(const Tables &t, const State &s, int p, int stat) {
    if (!s.place || t.support_stat[int(s.place)] != stat) return 0;
    int bonus = t.support_bonus[int(s.place)];
    return s.place_owner == p ? bonus : -bonus;
}

int gain(const Tables &t, const State &s, int p, int id) {
    int stat = s.stat, g = 0;
    const Effects *effects;
    if (kind_of(id) == K_ABILITY) {
        g = ABILITY_BONUS;
        effects = &t.ability_effects[int(s.current[p])];
    } else {
        int c = arg_of(id);
        int kind = t.support_kind[c];
        bool same = t.support_stat[c] == stat;
        if (kind == ITEM) {
            if (same) g = t.equips[c][int(s.current[p])] ? t.support_bonus[c] * 2 : t.support_bonus[c];  // R7
        } else if (kind == PLACE) {
            g = (same ? t.support_bonus[c] : 0) - place_edge(t, s, p, stat);  // R8: it replaces the old one
        } else if (same) {  // R9: an event counts for both, where its condition holds
            for (int side = 0; side < 2; ++side) {
                int q = side ? 1 - p : p;
                int base = t.printed[int(s.current[q])][stat];
                if (t.at_most[c] >= 0 && base > t.at_most[c]) continue;
                if (t.at_least[c] >= 0 && base < t.at_least[c]) continue;
                g += side ? -t.support_bonus[c] : t.support_bonus[c];
            }
        }
        effects = &t.support_effects[c];
    }
    for (auto [kind, n] : *effects) {
        if (kind == E_BOOST || kind == E_SAP)
            g += n;
        else if (kind == E_CLEAR_PLACE)
            g -= place_edge(t, s, p, stat);
    }
    return g;
}

int best_stat(const Tables &t, const State &s, int p) {
    const int *mine = t.printed[int(s.current[p])], *theirs = t.printed[int(s.current[1 - p])];
    int best = 0, best_v = 0;
    for (int k = 0; k < 3; ++k) {
        int v = mine[k] - theirs[k] + place_edge(t, s, p, k);
        if (k == 0 || v > best_v) best = k, best_v = v;
    }
    return best;
}

int play_or_pass(const Tables &t, State &s, Rng &rng) {
    int p = s.acting;
    auto [t0, t1] = Engine{t, s}.totals();
    int m = p == 0 ? t0 - t1 : t1 - t0;
    int c_me = t.charm[int(s.current[p])], c_o = t.charm[int(s.current[1 - p])];
    int tie = (c_me > c_o) - (c_me < c_o);
    if (m > 0 || (m == 0 && tie > 0)) return 0;  // PASS
    const Cards &hand = s.hands[p];
    int moves[32], gains[32], n = 0;
    for (int c : hand) {
        moves[n] = act(K_PLAY, c);
        gains[n] = gain(t, s, p, moves[n]);
        ++n;
    }
    if (!s.ability_used[p]) {
        int least = *std::min_element(gains, gains + n);
        int spare[32], k = 0;
        for (int i = 0; i < hand.n; ++i)
            if (gains[i] == least) spare[k++] = hand[i];
        moves[n] = act(K_ABILITY, spare[rng.below(k)]);
        gains[n] = gain(t, s, p, moves[n]);
        ++n;
    }
    int pick[32], k = 0;
    for (int i = 0; i < n; ++i)
        if (m + gains[i] > 0 || (m + gains[i] == 0 && tie > 0)) pick[k++] = moves[i];
    if (k) return pick[rng.below(k)];
    int top = *std::max_element(gains, gains + n);
    if (top <= 0) return 0;
    for (int i = 0; i < n; ++i)
        if (gains[i] == top) pick[k++] = moves[i];
    return pick[rng.below(k)];
}

enum Policy { RANDOM = 0, SENSIBLE = 1 };

int policy_action(const Tables &t, State &s, Rng &rng, int policy) {
    if (policy == SENSIBLE && rng.below(EXPLORE)) {
        if (s.phase == PLAY) return play_or_pass(t, s, rng);
        if (s.phase == STAT) return act(K_STAT, best_stat(t, s, s.acting));
    }
    int ids[64];
    int n = Engine{t, s}.legal(ids);
    return ids[rng.below(n)];
}

// ismcts.random_playout to the end of the match.
void playout(const Tables &t, State &s, Rng &rng, int policy) {
    while (s.phase != OVER) Engine{t, s}.apply(policy_action(t, s, rng, policy));
}

// ---- the tree (ismcts.Node, keyed by action ids), in one vector: each node's children are a list through
// ``next`` in the order of their creation (the order of the Python node's dict).
struct Node {
    int visits = 0, avail = 0;
    double reward = 0.0;  // from the point of view of the seat that chose the action leading here
    double mean = 0.0;    // reward / visits, as of the last backup (the same double the Python bot divides anew)
    int first = -1, last = -1, next = -1;  // the first and last children, the next sibling
    int16_t action = -1;
};

// log(k) for the availability counts of UCB1: std::log's own values, looked up.
constexpr int LOGS = 1 << 16;
const std::vector<double> &log_table() {
    static const std::vector<double> table = [] {
        std::vector<double> t(LOGS);
        for (int k = 1; k < LOGS; ++k) t[size_t(k)] = std::log(double(k));
        return t;
    }();
    return table;
}

struct Search {
    std::shared_ptr<const Tables> t;
    SamplerSpec spec;
    int policy;
    double c;
    Rng rng{0};
    std::vector<Node> nodes = std::vector<Node>(1);  // nodes[0]: the root
    long iterations = 0, descents = 0;  // descents: the tree's levels descended, all iterations together
    const double *logs = log_table().data();
    // The children by (node, action id): open addressing, keys node * 256 + id + 1 (0: empty), at most half full.
    std::vector<uint32_t> keys = std::vector<uint32_t>(256);
    std::vector<int32_t> values = std::vector<int32_t>(256);
    size_t mask = 255, used = 0;

    static size_t hash(uint32_t key) { return size_t((key * 2654435761u) ^ (key >> 7)); }
    int child(int node, int id) const {
        uint32_t key = uint32_t(node) * 256u + uint32_t(id) + 1u;
        for (size_t i = hash(key) & mask;; i = (i + 1) & mask) {
            if (keys[i] == key) return values[i];
            if (!keys[i]) return -1;
        }
    }
    void insert(uint32_t key, int32_t value) {
        size_t i = hash(key) & mask;
        while (keys[i]) i = (i + 1) & mask;
        keys[i] = key;
        values[i] = value;
    }
    void add_child(int node, int id, int ch) {
        if (2 * (used + 1) > keys.size()) {  // grow: twice the slots, everything again
            std::vector<uint32_t> old_keys(keys.size() * 2);
            std::vector<int32_t> old_values(keys.size() * 2);
            old_keys.swap(keys);
            old_values.swap(values);
            mask = keys.size() - 1;
            for (size_t i = 0; i < old_keys.size(); ++i)
                if (old_keys[i]) insert(old_keys[i], old_values[i]);
        }
        insert(uint32_t(node) * 256u + uint32_t(id) + 1u, ch);
        ++used;
    }

    double log_of(int k) const { return k < LOGS ? logs[k] : std::log(double(k)); }

    // IsmctsBot._iterate on one sample.
    void iterate() {
        const Tables &tb = *t;
        State s = sample(tb, spec, rng);
        int path[128], seats[128], depth = 0;
        int node = 0;
        while (s.phase != OVER) {
            int seat = s.acting;
            int ids[64];
            int n = Engine{tb, s}.legal(ids);
            int kids[64];
            for (int j = 0; j < n; ++j) kids[j] = child(node, ids[j]);
            int untried[64], nu = 0;
            int best = -1, best_child = -1;
            double best_score = -1.0;
            for (int j = 0; j < n; ++j) {
                int a = ids[j];
                if (kids[j] < 0) {
                    untried[nu++] = a;
                    continue;
                }
                Node &cn = nodes[size_t(kids[j])];
                cn.avail += 1;
                if (nu) continue;
                double score = cn.mean + c * std::sqrt(log_of(cn.avail) / cn.visits);
                if (score > best_score) {
                    best_score = score;
                    best = a;
                    best_child = kids[j];
                }
            }
            if (depth >= 127) throw std::length_error("flametable native duel: a search path outgrew its capacity");
            if (nu) {
                int a = untried[rng.below(nu)];
                int ch = int(nodes.size());
                Node fresh;
                fresh.avail = 1;
                fresh.action = int16_t(a);
                nodes.push_back(fresh);
                Node &parent = nodes[size_t(node)];
                if (parent.last >= 0)
                    nodes[size_t(parent.last)].next = ch;
                else
                    parent.first = ch;
                parent.last = ch;
                add_child(node, a, ch);
                Engine{tb, s}.apply(a);
                path[depth] = ch;
                seats[depth++] = seat;
                break;
            }
            Engine{tb, s}.apply(best);
            ++descents;
            node = best_child;
            path[depth] = node;
            seats[depth++] = seat;
        }
        playout(tb, s, rng, policy);
        double won[2] = {0.5, 0.5};  // Outcome.points: 1 a win, 0.5 a tie, 0 a loss
        if (s.winner >= 0) won[s.winner] = 1.0, won[1 - s.winner] = 0.0;
        for (int i = 0; i < depth; ++i) {
            Node &nd = nodes[size_t(path[i])];
            nd.visits += 1;
            nd.reward += won[seats[i]];
            nd.mean = nd.reward / nd.visits;
        }
    }

    void run(long count) {
        if (count < 0 || nodes.size() + size_t(count) >= (size_t(1) << 24))  // (the children's keys: node * 256 + id)
            throw nb::value_error("a native search of at most 16,777,215 iterations");
        nb::gil_scoped_release released;
        size_t need = nodes.size() + size_t(count);  // (one node an iteration; grown geometrically, not to fit)
        if (nodes.capacity() < need) nodes.reserve(std::max(need, 2 * nodes.capacity()));
        for (long i = 0; i < count; ++i) iterate();
        iterations += count;
    }

    // ``count`` determinisations drawn and dropped: the benchmark's share of the sampling in an iteration.
    void samples(long count) {
        nb::gil_scoped_release released;
        long sum = 0;
        for (long i = 0; i < count; ++i) sum += sample(*t, spec, rng).hands[spec.o].n;
        if (sum < 0) throw std::logic_error("unreachable");
    }

    // The root's most visited child among ``legal`` (the first created of equals), or -1 when none was tried.
    int best(nb::handle legal) const {
        int best_id = -1, best_visits = -1;
        std::vector<int> ids;
        for (nb::handle a : legal) ids.push_back(nb::cast<int>(a));
        for (int ch = nodes[0].first; ch >= 0; ch = nodes[size_t(ch)].next) {
            const Node &nd = nodes[size_t(ch)];
            if (std::find(ids.begin(), ids.end(), int(nd.action)) == ids.end()) continue;
            if (nd.visits > best_visits) best_visits = nd.visits, best_id = nd.action;
        }
        return best_id;
    }

    // The root's children: (action id, visits, availability, reward), in the order of creation.
    nb::list root() const {
        nb::list out;
        for (int ch = nodes[0].first; ch >= 0; ch = nodes[size_t(ch)].next) {
            const Node &nd = nodes[size_t(ch)];
            out.append(nb::make_tuple(int(nd.action), nd.visits, nd.avail, nd.reward));
        }
        return out;
    }
};

// ---- Sampler.__init__ in the core: the spec read from the seat's DuelView itself (its attributes, nothing else:
// the view is all the determiniser may see), without the Python Sampler, the base state's copy and the spec's
// dict of every decision (what made a short search's preparation cost: docs/benchmarks.md).
struct ViewNames {
    PyObject *seat, *phase, *to_act, *shared_pile, *draft, *round_number, *chooser, *stat, *place, *place_owner,
        *events, *log, *action, *autom, *passes, *pending, *results, *number, *characters, *totals, *winner,
        *by_charm, *seats, *wins, *plays, *ability_used, *items, *modifier, *character, *discard, *revealed,
        *outcome, *reason, *known_top, *my_characters, *known_characters, *flipped, *lineup, *champion,
        *hand_size, *hand, *my_pile, *pile_size;
};
ViewNames view_names;

void intern_view_names() {
    auto n = [](const char *s) { return PyUnicode_InternFromString(s); };
    ViewNames &v = view_names;
    v = ViewNames{n("seat"), n("phase"), n("to_act"), n("shared_pile"), n("draft"), n("round_number"), n("chooser"),
                  n("stat"), n("place"), n("place_owner"), n("events"), n("log"), n("action"), n("auto"),
                  n("passes"), n("pending"), n("results"), n("number"), n("characters"), n("totals"), n("winner"),
                  n("by_charm"), n("seats"), n("wins"), n("plays"), n("ability_used"), n("items"), n("modifier"),
                  n("character"), n("discard"), n("revealed"), n("outcome"), n("reason"), n("known_top"),
                  n("my_characters"), n("known_characters"), n("flipped"), n("lineup"), n("champion"),
                  n("hand_size"), n("hand"), n("my_pile"), n("pile_size")};
}

nb::object attr(nb::handle o, PyObject *name) {
    PyObject *r = PyObject_GetAttr(o.ptr(), name);
    if (!r) throw nb::python_error();
    return nb::steal(r);
}

long int_of(nb::handle o) {
    long v = PyLong_AsLong(o.ptr());  // (an IntEnum too: Phase)
    if (v == -1 && PyErr_Occurred()) throw nb::python_error();
    return v;
}
long int_attr(nb::handle o, PyObject *name) { return int_of(attr(o, name)); }
long int_or(nb::handle o, PyObject *name, long none) {  // ``x if x is not None else none``
    nb::object v = attr(o, name);
    return v.is_none() ? none : int_of(v);
}
bool bool_attr(nb::handle o, PyObject *name) {
    int v = PyObject_IsTrue(attr(o, name).ptr());
    if (v < 0) throw nb::python_error();
    return v;
}

// The items of a tuple (or list) of the view, as a sequence to index.
struct Items {
    nb::object seq;
    Py_ssize_t n;
    explicit Items(nb::handle o) {
        PyObject *s = PySequence_Fast(o.ptr(), "a sequence of the view");
        if (!s) throw nb::python_error();
        seq = nb::steal(s);
        n = PySequence_Fast_GET_SIZE(s);
    }
    nb::handle operator[](Py_ssize_t i) const { return PySequence_Fast_GET_ITEM(seq.ptr(), i); }
};

template <typename V>
void ints_of(V &out, nb::handle seq) {
    Items it(seq);
    out.clear();
    for (Py_ssize_t i = 0; i < it.n; ++i) out.push(int8_t(int_of(it[i])));
}
template <typename V>
void ints_attr(V &out, nb::handle o, PyObject *name) { ints_of(out, attr(o, name)); }

SamplerSpec spec_of_view(const Tables &t, nb::handle view, nb::handle reasons) {
    const ViewNames &N = view_names;
    SamplerSpec sp;
    nb::object seat = attr(view, N.seat);
    if (seat.is_none()) throw nb::value_error("a determiniser needs a seat's view, not a spectator's");
    int me = sp.me = int(int_of(seat)), o = sp.o = 1 - me;
    if (me != 0 && me != 1) throw nb::value_error("a determiniser needs a seat's view");
    State &st = sp.base;  // DuelState.blank, filled from the view
    st.shared = bool_attr(view, N.shared_pile);
    st.draft = bool_attr(view, N.draft);
    st.pile_of[0] = 0;
    st.pile_of[1] = st.shared ? 0 : 1;
    st.rng.state = mix(0);  // Rng(0)
    int phase = int(int_attr(view, N.phase));
    st.phase = int8_t(phase);
    nb::object to_act_obj = attr(view, N.to_act);
    int to_act = to_act_obj.is_none() ? -1 : int(int_of(to_act_obj));
    st.acting = int8_t(to_act >= 0 ? to_act : 0);
    st.first_picker = st.acting;
    int round_number = int(int_attr(view, N.round_number));
    st.round_no = int8_t(round_number - 1);
    st.chooser = int8_t(int_or(view, N.chooser, 0));
    st.stat = int8_t(int_attr(view, N.stat));
    st.place = int8_t(int_attr(view, N.place));
    st.place_owner = int8_t(int_or(view, N.place_owner, 0));
    {
        Items events(attr(view, N.events));
        for (Py_ssize_t i = 0; i < events.n; ++i) {
            Items e(events[i]);
            st.events.push({int8_t(int_of(e[0])), int8_t(int_of(e[1]))});
        }
        Items log(attr(view, N.log));
        for (Py_ssize_t i = 0; i < log.n; ++i) {
            nb::object a = attr(log[i], N.action);
            long id = t.find(a.ptr());
            if (id < 0) id = int_attr(a, str_id);  // an equal action, not one of the game's own values
            if (id < 0 || id >= NUM_ACTIONS) throw nb::value_error("not a Flame Duel action");
            st.log.push({int8_t(int_attr(log[i], N.seat)), uint8_t(id), bool_attr(log[i], N.autom)});
        }
        Items pending(attr(view, N.pending));
        for (Py_ssize_t i = 0; i < pending.n; ++i) {
            Items e(pending[i]);
            st.pending.push({int8_t(int_of(e[0])), int8_t(int_of(e[1])), int8_t(int_of(e[2]))});
        }
        Items results(attr(view, N.results));
        for (Py_ssize_t i = 0; i < results.n; ++i) {
            nb::handle r = results[i];
            RoundResult rr{};
            rr.number = int8_t(int_attr(r, N.number));
            rr.chooser = int8_t(int_attr(r, N.chooser));
            rr.stat = int8_t(int_attr(r, N.stat));
            Items ch(attr(r, N.characters)), tot(attr(r, N.totals));
            rr.characters[0] = int8_t(int_of(ch[0]));
            rr.characters[1] = int8_t(int_of(ch[1]));
            rr.totals[0] = int(int_of(tot[0]));
            rr.totals[1] = int(int_of(tot[1]));
            rr.winner = int8_t(int_attr(r, N.winner));
            rr.by_charm = bool_attr(r, N.by_charm);
            st.results.push(rr);
        }
    }
    st.passes = int8_t(int_attr(view, N.passes));
    Items seats(attr(view, N.seats));
    if (seats.n != 2) throw nb::value_error("a view of two seats");
    for (int p = 0; p < 2; ++p) {
        nb::handle s = seats[p];
        st.wins[p] = int8_t(int_attr(s, N.wins));
        st.plays[p] = int8_t(int_attr(s, N.plays));
        st.ability_used[p] = bool_attr(s, N.ability_used);
        ints_attr(st.items[p], s, N.items);
        st.modifiers[p] = int(int_attr(s, N.modifier));
        st.current[p] = int8_t(int_attr(s, N.character));
        ints_attr(st.discards[p], s, N.discard);
        ints_attr(st.revealed[p], s, N.revealed);
    }
    nb::object outcome = attr(view, N.outcome);
    if (!outcome.is_none()) {
        st.over = true;
        nb::object winner = attr(outcome, N.winner);
        st.winner = int8_t(winner.is_none() ? -1 : int_of(winner));
        nb::object reason = attr(outcome, N.reason);
        Items rs(reasons);
        st.reason = -1;
        for (Py_ssize_t i = 0; i < rs.n; ++i)
            if (rs[i].ptr() == reason.ptr()) st.reason = int8_t(i);
        if (st.reason < 0) throw nb::value_error("an outcome's reason that is not Flame Duel's");
    }
    ints_attr(sp.known_top, view, N.known_top);
    st.looked_at[me] = int8_t(sp.known_top.n);

    // characters and line-ups (R3)
    nb::handle theirs = seats[o];
    Vec<int8_t, 3> mine;
    ints_attr(mine, view, N.my_characters);
    ints_attr(sp.theirs_known, theirs, N.known_characters);
    Vec<int8_t, 4> flipped;
    ints_attr(flipped, theirs, N.flipped);
    sp.flipped.clear();
    for (int i = 0; i < std::min(flipped.n, 3); ++i) sp.flipped.push(flipped[i]);
    for (int c = 1; c <= NUM_CHARACTERS; ++c)
        if (!sp.theirs_known.contains(int8_t(c)) && !(st.shared && mine.contains(int8_t(c))))
            sp.char_pool.push(int8_t(c));
    sp.draft_phase = phase == DRAFT;
    sp.n_unknown_chars = sp.draft_phase ? 0 : 3 - sp.theirs_known.n;
    st.characters[me] = mine;
    ints_attr(st.lineups[me], view, N.lineup);
    bool my_turn_after = o < me && to_act == me;
    sp.their_lineup_done = phase != LINEUP || my_turn_after;
    sp.champion_phase = phase == CHAMPION;
    if (sp.champion_phase)
        st.champion[me] = int8_t(int_attr(view, N.champion));
    else if (round_number == 4)
        st.champion[0] = st.current[0], st.champion[1] = st.current[1];
    sp.champion_chosen = my_turn_after;

    // support cards
    sp.hand_o = int(int_attr(theirs, N.hand_size));
    sp.revealed_o = st.revealed[o];
    ints_attr(st.hands[me], view, N.hand);
    bool seen[NUM_SUPPORTS + 1] = {};
    auto see = [&](const auto &cards) {
        for (int c : cards)
            if (c >= 0 && c <= NUM_SUPPORTS) seen[c] = true;
    };
    if (st.shared) {
        see(st.hands[me]);
        see(st.discards[0]), see(st.discards[1]);
        see(st.items[0]), see(st.items[1]);
        for (auto [p, c] : st.events) seen[int(c)] = true;
        see(sp.known_top);
        see(sp.revealed_o);
        if (st.place) seen[int(st.place)] = true;
        for (int c = 1; c <= NUM_SUPPORTS; ++c)
            if (!seen[c]) sp.unknown.push(int8_t(c));
        sp.n_unknown = sp.unknown.n;
    } else {
        Cards my_pile;
        ints_attr(my_pile, view, N.my_pile);
        for (int8_t c : my_pile)
            if (!sp.known_top.contains(c)) sp.my_below.push(c);
        see(st.discards[o]);
        see(st.items[o]);
        for (auto [p, c] : st.events)
            if (p == o) seen[int(c)] = true;
        see(sp.revealed_o);
        if (st.place && st.place_owner == o) seen[int(st.place)] = true;
        for (int c = 1; c <= NUM_SUPPORTS; ++c)
            if (!seen[c]) sp.unknown.push(int8_t(c));
        sp.n_unknown = sp.hand_o - sp.revealed_o.n + int(int_attr(theirs, N.pile_size));
    }
    st.npiles = st.shared ? 1 : 2;
    if (sp.theirs_known.n + sp.n_unknown_chars > 3 || sp.hand_o < sp.revealed_o.n || sp.n_unknown < 0)
        throw nb::value_error("a sampler's counts do not fit the view");
    return sp;
}

int policy_code(int policy) {
    if (policy != RANDOM && policy != SENSIBLE) throw nb::value_error("policy: 0 (random) or 1 (sensible)");
    return policy;
}

}  // namespace

// The three calls of every step (to_act, legal_actions, apply) as CPython's own descriptors on the class: a
// getset and two methods called straight from the interpreter, without nanobind's dispatch (issue 26's P1).
template <typename F>
PyObject *guarded(F &&f) {
    try {
        return f();
    } catch (nb::python_error &e) {
        e.restore();
    } catch (const std::exception &e) {
        PyErr_SetString(PyExc_RuntimeError, e.what());
    }
    return nullptr;
}

PyObject *py_to_act(PyObject *self, void *) {
    const State &s = nb::inst_ptr<DuelState>(self)->s;
    if (s.phase == OVER) Py_RETURN_NONE;
    return PyLong_FromLong(s.acting);
}

PyObject *py_legal_actions(PyObject *self, PyObject *) {
    return guarded([&] { return nb::inst_ptr<DuelState>(self)->legal_actions().release().ptr(); });
}

PyObject *py_apply(PyObject *self, PyObject *action) {
    return guarded([&] {
        nb::inst_ptr<DuelState>(self)->apply(action);
        Py_RETURN_NONE;
    });
}

PyGetSetDef TO_ACT = {"to_act", py_to_act, nullptr, "the seat to act, None once the match is over", nullptr};
PyMethodDef LEGAL_ACTIONS = {"legal_actions", py_legal_actions, METH_NOARGS, "the legal actions, in the reference's order"};
PyMethodDef APPLY = {"apply", py_apply, METH_O, "play an action for the seat to act (IllegalAction if it is not legal)"};

void add_descriptor(nb::handle cls, const char *name, PyObject *descr) {
    if (!descr || PyObject_SetAttrString(cls.ptr(), name, descr) != 0) throw nb::python_error();
    Py_DECREF(descr);
}

NB_MODULE(_duel, m) {
    m.doc() = "Flame Duel's rules engine in C++ (flametable issue 26): flametable.games.duel.native wraps it.";
    str_id = PyUnicode_InternFromString("id");
    intern_view_names();
    m.attr("NUM_ACTIONS") = NUM_ACTIONS;
    // A card set's tables are kept by the Python side's cache of games for the life of the process, and Python's
    // shutdown does not promise to collect module globals: nanobind would call each such instance a leak on stderr
    // at every server process's exit (seen in `serve --workers 2`'s log). They are not leaks; say nothing.
    nb::set_leak_warnings(false);
    nb::class_<DuelTables>(m, "DuelTables");
    m.def("make_tables", &make_tables);
    auto state = nb::class_<DuelState>(m, "DuelState");
    nb::class_<DuelEncoder>(m, "DuelEncoder");
    m.def("make_encoder", &make_encoder);
    state.def("encode", [](DuelState &d, int seat, const DuelEncoder &enc, Obs out) {
        if (seat != 0 && seat != 1) throw nb::value_error("an observation is made of a seat's view, not a spectator's");
        if (out.shape(0) != size_t(enc.L.size)) throw nb::value_error("the observation's length is not the layout's");
        encode(seat_view(*d.t, d.s, seat), enc.L, out.data());
    });
    state.def_prop_ro("outcome", &DuelState::outcome)
        .def("clone", &DuelState::clone)
        .def("view_json", &DuelState::json, nb::arg("seat").none())
        .def("view",
             [](DuelState &d, nb::handle seat) {
                 if (!seat.is_none() && !(PyLong_CheckExact(seat.ptr()) &&
                                          (PyLong_AsLong(seat.ptr()) == 0 || PyLong_AsLong(seat.ptr()) == 1)))
                     throw nb::value_error(("seat must be 0, 1 or None, got " +
                                            nb::cast<std::string>(nb::repr(seat))).c_str());
                 return d.t->make_view(d.json(seat));
             },
             nb::arg("seat").none())
        .def("fields", &fields)

        .def_prop_ro("engine", [](const DuelState &) { return "native"; });
    // The reference state's other fields (and helpers), read from a Python copy of the state: what the lab's
    // summaries and the bots' evaluation read. Properties, not __getattr__, which would slow every attribute.
    static const char *const FALLBACK[] = {
        "cards", "shared", "draft", "pile_of", "rng", "phase", "acting", "first_picker", "characters", "lineups",
        "champion", "hands", "piles", "discards", "looked_at", "place", "place_owner", "round_no", "chooser", "stat",
        "current", "plays", "ability_used", "passes", "items", "events", "modifiers", "pending", "log", "results",
        "revealed", "wins", "tiebreak", "totals", "pile"};
    for (const char *name : FALLBACK)
        state.def_prop_ro(name, [name](nb::handle self) {
            DuelState &d = nb::cast<DuelState &>(self);
            return d.t->fallback(self, name);
        });
    auto *type = reinterpret_cast<PyTypeObject *>(state.ptr());
    add_descriptor(state, "to_act", PyDescr_NewGetSet(type, &TO_ACT));
    add_descriptor(state, "legal_actions", PyDescr_NewMethod(type, &LEGAL_ACTIONS));
    add_descriptor(state, "apply", PyDescr_NewMethod(type, &APPLY));
    m.def("new_match", &new_match);
    nb::class_<DuelBatch>(m, "DuelBatch")
        .def("encode", &batch_encode)
        .def(nb::init<const DuelTables &, int, bool, bool, uint64_t>())
        .def("observe", &DuelBatch::observe)
        .def("step", &DuelBatch::step)
        .def("state", &DuelBatch::state)
        .def("seed", &DuelBatch::seed)
        .def_ro("size", &DuelBatch::n)
        .def_rw("threads", &DuelBatch::threads);
    m.def("from_fields", &from_fields);
    // The ISMCTS bot's inner loop (issue 26, P3): games/duel/native.py's NativeSearch wraps it.
    nb::class_<Search>(m, "Search")
        .def("run", &Search::run)
        .def("samples", &Search::samples)
        .def("best", &Search::best)
        .def("root", &Search::root)
        .def("sample",
             [](Search &self) {
                 return DuelState{self.t, sample(*self.t, self.spec, self.rng), nb::none()};
             })
        .def_ro("iterations", &Search::iterations)
        .def_ro("descents", &Search::descents)
        .def_prop_rw(
            "rng_state", [](const Search &self) { return self.rng.state; },
            [](Search &self, uint64_t v) { self.rng.state = v; });
    // The search of a decision from the seat's view itself (Sampler.__init__ in the core: spec_of_view).
    m.def("search_of_view", [](const DuelTables &tables, nb::handle view, nb::handle reasons, int policy, double c,
                               uint64_t rng_state) {
        Search search{tables.t, spec_of_view(*tables.t, view, reasons), policy_code(policy), c};
        search.rng.state = rng_state;
        return search;
    });
    // Playouts of clones of ``states``, round after round (one of each state in turn, ``rounds`` rounds), the
    // generator's state carried through: the benchmark's like-for-like reference of an iteration (one state many
    // rounds: the same state again and again; the samples of a view, one round: as a search meets them). Gives
    // the generator's state after them.
    m.def("playouts", [](std::vector<const DuelState *> states, long rounds, int policy, uint64_t rng_state) {
        policy_code(policy);
        Rng rng{rng_state};
        nb::gil_scoped_release released;
        for (long i = 0; i < rounds; ++i)
            for (const DuelState *d : states) {
                State s = d->s;
                playout(*d->t, s, rng, policy);
            }
        return rng.state;
    });
    // One playout of the state itself (the policy's moves played on it): gives the generator's state after it.
    m.def("playout", [](DuelState &d, int policy, uint64_t rng_state) {
        Rng rng{rng_state};
        playout(*d.t, d.s, rng, policy_code(policy));
        d.outcome_cache = nb::none();
        return rng.state;
    });
}
