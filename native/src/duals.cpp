// Flamecraft Duals' rules engine in C++ (issue 26): the same rules, actions and ids, seeded randomness and views as
// the reference engine, src/flametable/games/duals/state.py and game.py (rulings D1-D11 cited as there). Every
// function below is a transcription of the Python method of the same name; the differential tests
// (tests/games/duals/test_native.py) hold them to it. No I/O, no clock, no global randomness.
//
// The data stays data: Python reads the data file (board, tokens, shop deck, every pattern's placements) and hands
// its integer tables to DualsTables. A board has at most 61 spaces (data.py's MAX_SPACES), so a set of spaces is
// one 64-bit word.

#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>
#include <nanobind/ndarray.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace nb = nanobind;

namespace {

constexpr int MAX_SPACES = 64;
constexpr int NUM_TYPES = 6;
constexpr int LIMIT = 3;  // STACK_LIMIT (FAQ, D6)
constexpr int HAND_SIZE = 2, START_COINS = 3, CRYSTAL_DRAW = 3, COIN_DRAW = 2, COIN_BOTTOM = 2;

// Step (rules.py), Kind (actions.py), TokenType (rules.py): the enums' values.
enum Step { PLACE = 0, FIRE, TAKE, MEAT, IRON, POTION, PLANT, SCORE, BOTTOM, OVER };
enum Kind { K_DONE = 0, K_SKIP, K_COIN, K_PLACE, K_FIRE, K_TAKE, K_USE, K_MOVE, K_SWAP, K_SCORE, K_BOTTOM };
enum TokenType { BREAD_T = 0, CRYSTAL_T, MEAT_T, IRON_T, POTION_T, PLANT_T };
constexpr int STEP_FOR_TYPE[NUM_TYPES] = {PLACE, TAKE, MEAT, IRON, POTION, PLANT};
// Reason (rules.py), in the order of its members.
enum Reason { MOST_VP = 0, MORE_CARDS, SHARED };
const char *const REASON_VALUE[] = {"most_vp", "more_cards", "shared_victory"};
const char *const STEP_NAME[] = {"place", "fire", "take", "meat", "iron", "potion", "plant", "score", "bottom", "over"};

// The reasons an action is refused; the Python side (duals/native.py, _illegal) turns one into the reference
// engine's IllegalAction, with the same message and parameters.
enum Illegal {
    MATCH_OVER = 0,
    NOT_IN_HAND,     // a: the card
    COIN_ONCE,       // FAQ
    NO_COINS,
    NO_MATCH,        // a: the card (D5)
    PLACE_FULL,      // a: the space
    NO_ABILITY,      // a: the token kind, b: the ability
    NOTHING_TO_DO,   // a: the ability (D6)
    PLANT_USES,      // D6
    NOT_DRAWN,       // a: the token kind
    IRON_MOVED,      // D6
    IRON_NOT_NEXT,   // a: the space moved to, b: the space moved from
    NO_TOKEN,        // a: the space
    SAME_SWAP,       // a: the token kind
    ALREADY_FIRED,   // a: the space (D6)
    NO_USEFUL,       // a: the space
    NOT_NEXT,        // a: the space, b: the firing space
    ROOM_FULL,       // a: the space (FAQ, D6)
    NOT_NOW,         // a: the phase expected
};

struct Refused {
    int code, action, a, b;
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
    template <typename V>
    void shuffle(V &items) {
        for (int i = int(items.size()) - 1; i > 0; --i) {
            int j = int(((next() >> 32) * uint64_t(i + 1)) >> 32);
            std::swap(items[i], items[j]);
        }
    }
};

// ------------------------------------------------------------------ the data's tables (data.py, pattern.py)

// A pattern without variables, its placements listed by the space of its first cell (which asks for type t0): for
// each space, [the number of other cells, then (space, type bit) of each] per placement, from start[space].
struct Anchored {
    bool on = false;
    int t0 = 0;
    uint64_t anchors = 0;
    std::vector<int32_t> start;
    std::vector<int16_t> code;
};

struct Tables {
    int n = 0, m = 0, kinds = 0, buddy_kind = 0, buddy_tokens = 0, num_actions = 0;
    int off[11] = {};
    uint64_t all_spaces = 0;            // bit s for every space
    // Where the legal actions are listed before they are kept (room for every action; calls hold the GIL).
    mutable std::vector<int> scratch;
    std::vector<std::vector<int>> adj;  // each space's neighbours, ascending
    std::vector<uint64_t> adj_bits;
    std::vector<int> inner;
    std::vector<std::vector<int>> abilities;   // per kind, ascending
    std::vector<int> kind_mask;                // per kind, the types it shows (D5)
    std::vector<int> rank;                     // per kind, D3's FIRE UP rank (a larger int ranks higher)
    std::vector<int> pool;                     // every token (D3's draw)
    std::vector<int> bag;                      // the bag's contents at the deal (D2), Buddy not included
    std::vector<int> vp;                       // per card number
    std::vector<char> starburst;               // per card number (D9)
    std::vector<std::vector<int16_t>> patterns;  // per card number: its placements' flat code (fits)
    std::vector<Anchored> anchored;              // per card number: its placements by the space of the first cell
    std::vector<int> act_kind, act_a, act_b;
    std::vector<std::string> space_name, kind_name, text;
    // Python's side: the DualsAction of each id and the factories of what leaves the engine.
    nb::object actions;
    std::vector<PyObject *> action;
    static constexpr int SLOTS = 8192;
    std::vector<PyObject *> key = std::vector<PyObject *>(SLOTS, nullptr);
    std::vector<int> value = std::vector<int>(SLOTS, 0);
    static int slot_of(const PyObject *a) { return int((reinterpret_cast<uintptr_t>(a) >> 4) * 2654435761u) & (SLOTS - 1); }
    void index(PyObject *a, int id) {
        int i = slot_of(a);
        while (key[i]) i = (i + 1) & (SLOTS - 1);
        key[i] = a;
        value[i] = id;
    }
    int find(const PyObject *a) const {
        for (int i = slot_of(a); key[i]; i = (i + 1) & (SLOTS - 1))
            if (key[i] == a) return value[i];
        return -1;
    }
    nb::object make_outcome;  // (winner or None, reason index, points 0, points 1) -> Outcome
    nb::object illegal;       // (code, action id, a, b) -> IllegalAction
    nb::object make_view;     // (JSON text) -> DualsView
    nb::object fallback;      // (state, name) -> the reference state's attribute

    int PLACE_(int s) const { return off[K_PLACE] + s; }
    int FIRE_(int t) const { return off[K_FIRE] + t; }
    int TAKE_(int k) const { return off[K_TAKE] + k; }
    int USE_(int s) const { return off[K_USE] + s; }
    int MOVE_(int a, int b) const { return off[K_MOVE] + a * (n - 1) + b - (b > a ? 1 : 0); }
    int SWAP_(int a, int b) const {
        int lo = std::min(a, b), hi = std::max(a, b);
        return off[K_SWAP] + lo * (n - 1) - lo * (lo - 1) / 2 + (hi - lo - 1);
    }
    int SCORE_(int c) const { return off[K_SCORE] + c - 1; }
    int BOTTOM_(int c) const { return off[K_BOTTOM] + c - 1; }
};

struct Stack {
    int8_t v[LIMIT];
    int8_t n;
    int top() const { return v[n - 1]; }
};

using Ints = std::vector<int8_t>;

struct State {
    std::array<Stack, MAX_SPACES> stacks{};
    Ints bag, reserve, deck, drawn;
    Ints hands[2], piles[2], known[2];
    int coins[2] = {START_COINS, START_COINS};
    Rng rng{0};
    int first = 0;
    std::vector<std::pair<int8_t, int8_t>> first_draws;
    bool buddy = false;
    int turn = 0, turn_number = 0, step = 0, firing = -1, held = -1;
    bool fire_after = true, fire_optional = true;
    uint64_t fired[LIMIT] = {0, 0, 0};  // per level from the bottom, the spaces fired in this chain (D6)
    int iron_dest = -1;
    bool coin_used = false;
    int bottom_left = 0;
    bool ended = false, last = false;
    uint64_t full = 0;  // bit s: space s holds 3 tokens
    std::vector<int> legal;
    uint64_t match_known[2] = {0, 0}, match_val[2] = {0, 0};  // per card number: whether it matches (cache)
    uint64_t has[NUM_TYPES] = {};  // per type, the spaces whose top token shows it (D5)
    int topmask[MAX_SPACES] = {};  // per space, the types its top token shows
    bool over = false;
    int winner = -1, reason = 0, points[2] = {0, 0};
};

struct Fired {
    uint64_t f[LIMIT];
    bool has(int s, int level) const { return (f[level] >> s) & 1; }
};

bool contains(const Ints &v, int x) { return std::find(v.begin(), v.end(), int8_t(x)) != v.end(); }
void remove_one(Ints &v, int x) {
    auto it = std::find(v.begin(), v.end(), int8_t(x));
    if (it != v.end()) v.erase(it);
}
// A sorted copy of a short list (a hand, crystal's draws, a reserve: at most 127 items), without allocating.
struct Sorted {
    int8_t v[128];
    int n;
    const int8_t *begin() const { return v; }
    const int8_t *end() const { return v + n; }
};
Sorted sorted(const Ints &in) {
    Sorted out;
    int n = out.n = std::min(int(in.size()), 128);
    for (int i = 0; i < n; ++i) {  // an insertion sort: the lists are short
        int8_t x = in[size_t(i)];
        int j = i;
        for (; j > 0 && out.v[j - 1] > x; --j) out.v[j] = out.v[j - 1];
        out.v[j] = x;
    }
    return out;
}

int popcount(unsigned x) { return __builtin_popcount(x); }

bool distinct_possible(const int *cands, int k) {
    if (k == 1) return cands[0] != 0;
    for (int sub = 1; sub < (1 << k); ++sub) {
        int uni = 0, cnt = 0;
        for (int i = 0; i < k; ++i)
            if ((sub >> i) & 1) {
                uni |= cands[i];
                ++cnt;
            }
        if (popcount(unsigned(uni)) < cnt) return false;
    }
    return true;
}

// One placement of a pattern, in a card's flat code (Tables::patterns): [its length, the number of fixed cells, then
// (space, type bit) of each, the number of variables, then for each its number of spaces and the spaces].
bool fits(const int16_t *pl, const int *masks) {
    int nf = pl[1];
    const int16_t *p = pl + 2;
    for (int i = 0; i < nf; ++i, p += 2)
        if (!(masks[p[0]] & p[1])) return false;
    int ng = *p++;
    if (!ng) return true;
    int cands[NUM_TYPES + 1];
    for (int g = 0; g < ng; ++g) {
        int len = *p++;
        int c = (1 << NUM_TYPES) - 1;
        for (int i = 0; i < len; ++i) c &= masks[p[i]];
        p += len;
        if (!c) return false;
        cands[g] = c;
    }
    return distinct_possible(cands, ng);
}

// The legal actions being listed, into a buffer with room for every action of the game (each is listed once).
struct Out {
    int *p;
    int n;
    void push(int x) { p[n++] = x; }
    void push_front(int x) {
        for (int i = n; i > 0; --i) p[i] = p[i - 1];
        p[0] = x;
        ++n;
    }
    bool empty() const { return n == 0; }
    int back() const { return p[n - 1]; }
};

struct Engine {
    const Tables &t;
    State &s;
    int *scratch = nullptr;  // where settle lists the legal actions (null: the tables' own, the GIL held)

    // ------------------------------------------------------------------ facts

    int points(int seat) const {
        int total = 0;
        bool star = false;
        for (int c : s.piles[seat]) {
            total += t.vp[c];
            if (t.starburst[c]) star = true;
        }
        if (!star) total += s.coins[seat];
        return total;
    }

    // Whether ``card`` matches the board now (D5), remembered until the board changes (push, pop).
    bool matches(int card) const {
        int w = card >> 6;
        uint64_t bit = uint64_t(1) << (card & 63);
        if (s.match_known[w] & bit) return (s.match_val[w] & bit) != 0;
        bool found = false;
        const Anchored &an = t.anchored[card];
        if (an.on) {  // no variables: only the placements whose first cell's space shows its type
            const int16_t *code = an.code.data();
            for (uint64_t cand = s.has[an.t0] & an.anchors; cand && !found; cand &= cand - 1) {
                int sp = __builtin_ctzll(cand);
                for (const int16_t *p = code + an.start[sp], *end = code + an.start[sp + 1]; p < end;) {
                    int len = *p++;
                    int i = 0;
                    while (i < len && (s.topmask[p[2 * i]] & p[2 * i + 1])) ++i;
                    if (i == len) {
                        found = true;
                        break;
                    }
                    p += 2 * len;
                }
            }
        } else {
            const auto &code = t.patterns[card];
            for (const int16_t *p = code.data(), *end = p + code.size(); p < end; p += p[0])
                if (fits(p, s.topmask)) {
                    found = true;
                    break;
                }
        }
        s.match_known[w] |= bit;
        if (found) s.match_val[w] |= bit; else s.match_val[w] &= ~bit;
        return found;
    }

    Ints matching(int seat) const {
        Ints out;
        for (int c : sorted(s.hands[seat]))
            if (matches(c)) out.push_back(int8_t(c));
        return out;
    }

    int height(int sp) const { return s.stacks[sp].n; }
    bool open(int sp) const { return s.stacks[sp].n < LIMIT; }

    // ------------------------------------------------------------------ the board

    void show(int sp, int k, bool on) {  // the top-token summaries: space sp shows (or stops showing) kind k
        uint64_t bit = uint64_t(1) << sp;
        int m = t.kind_mask[k];
        for (unsigned rest = unsigned(m); rest; rest &= rest - 1) {  // the kind's types only (one or two)
            int ty = __builtin_ctz(rest);
            if (on) s.has[ty] |= bit; else s.has[ty] &= ~bit;
        }
        s.topmask[sp] = on ? m : 0;
    }

    void index_board() {  // the summaries worked out afresh from the stacks
        s.full = 0;
        for (int ty = 0; ty < NUM_TYPES; ++ty) s.has[ty] = 0;
        for (int sp = 0; sp < t.n; ++sp) {
            s.topmask[sp] = 0;
            if (s.stacks[sp].n) show(sp, s.stacks[sp].top(), true);
            if (s.stacks[sp].n == LIMIT) s.full |= uint64_t(1) << sp;
        }
        s.match_known[0] = s.match_known[1] = 0;
    }

    void push(int sp, int k) {
        s.match_known[0] = s.match_known[1] = 0;
        Stack &st = s.stacks[sp];
        if (st.n) show(sp, st.top(), false);
        show(sp, k, true);
        st.v[st.n++] = int8_t(k);
        if (st.n == LIMIT) s.full |= uint64_t(1) << sp;
    }

    int pop(int sp) {
        s.match_known[0] = s.match_known[1] = 0;
        Stack &st = s.stacks[sp];
        if (st.n == LIMIT) s.full &= ~(uint64_t(1) << sp);
        int k = st.v[--st.n];
        show(sp, k, false);
        if (st.n) show(sp, st.top(), true);
        return k;
    }

    // ------------------------------------------------------------------ draws (D7, D8)

    int draw_token() {
        if (s.bag.empty()) {
            if (s.reserve.empty()) return -1;
            s.bag.insert(s.bag.end(), s.reserve.begin(), s.reserve.end());
            s.reserve.clear();
            s.rng.shuffle(s.bag);
        }
        int k = s.bag.back();
        s.bag.pop_back();
        if (s.bag.empty()) s.ended = true;  // D8: a draw emptied the bag
        return k;
    }

    void to_bag(int k) { s.bag.insert(s.bag.begin() + s.rng.below(int(s.bag.size()) + 1), int8_t(k)); }

    void draw_card(int p) {
        if (s.deck.empty()) return;  // D8: a draw from an empty deck draws nothing
        int c = s.deck.back();
        s.deck.pop_back();
        s.hands[p].push_back(int8_t(c));
        for (auto &kb : s.known) remove_one(kb, c);
        if (s.deck.empty()) s.ended = true;  // D8: a draw emptied the shop deck
    }

    // ------------------------------------------------------------------ turn flow

    void start_turn(int p) {
        s.turn = p;
        s.turn_number += 1;
        s.coin_used = false;
        s.fired[0] = s.fired[1] = s.fired[2] = 0;
        s.iron_dest = -1;
        int k = draw_token();
        if (k < 0) {
            s.ended = true;
            s.step = SCORE;
            return;
        }
        s.held = k;
        s.fire_after = true;
        s.step = PLACE;
    }

    void end_chain() {
        s.step = SCORE;
        s.firing = -1;
        s.fired[0] = s.fired[1] = s.fired[2] = 0;
        s.iron_dest = -1;
    }

    void end_score() {
        int p = s.turn;
        if (s.last) {
            finish();
            return;
        }
        while (int(s.hands[p].size()) < HAND_SIZE && !s.deck.empty()) draw_card(p);  // REFRESH
        if (s.ended) {  // D8: the opponent's last chance: score and coin only
            s.turn = 1 - p;
            s.turn_number += 1;
            s.last = true;
            s.coin_used = false;
            s.step = SCORE;
            return;
        }
        start_turn(1 - p);
    }

    void finish() {  // D9
        int v0 = points(0), v1 = points(1);
        int n0 = int(s.piles[0].size()), n1 = int(s.piles[1].size());
        if (v0 != v1) {
            s.winner = v0 > v1 ? 0 : 1;
            s.reason = MOST_VP;
        } else if (n0 != n1) {
            s.winner = n0 > n1 ? 0 : 1;
            s.reason = MORE_CARDS;
        } else {
            s.winner = -1;
            s.reason = SHARED;
        }
        s.step = OVER;
        s.bottom_left = 0;
        s.over = true;
        s.points[0] = v0;
        s.points[1] = v1;
    }

    void settle() {
        int *buf = scratch ? scratch : t.scratch.data();
        while (s.step != OVER) {
            Out acts{buf, 0};
            compute_legal(acts);
            if (acts.n != 1) {
                if (acts.empty()) throw std::logic_error("flametable native duals: no legal action");
                s.legal.assign(buf, buf + acts.n);
                return;
            }
            apply_id(buf[0], false);
        }
        s.legal.clear();
    }

    // ------------------------------------------------------------------ abilities (D6)

    // The spaces with room, ascending (never empty: the data has fewer tokens than the board has room, D1, D2).
    int opens(int *out) const {
        int k = 0;
        for (int i = 0; i < t.n; ++i)
            if (!((s.full >> i) & 1)) out[k++] = i;
        return k;
    }

    bool can(int ab, int sp, const Fired &fired) const {
        if (ab <= CRYSTAL_T) return !s.bag.empty() || !s.reserve.empty();
        const auto &adj = t.adj;
        if (ab == MEAT_T) {
            uint64_t room = ~s.full & t.all_spaces;
            int only = (room & (room - 1)) == 0 ? __builtin_ctzll(room) : -1;  // one space with room: no move onto it
            for (int a : adj[sp])
                if (s.stacks[a].n && a != only) return true;
            return false;
        }
        if (ab == IRON_T) {
            for (int a : adj[sp])
                if (s.stacks[a].n)
                    for (int b : adj[a])
                        if (s.stacks[b].n < LIMIT) return true;
            return false;
        }
        if (ab == POTION_T) {
            int first = -1;
            for (int i = 0; i < t.n; ++i)
                if (s.stacks[i].n) {
                    int k = s.stacks[i].top();
                    if (first < 0)
                        first = k;
                    else if (k != first)
                        return true;
                }
            return false;
        }
        // PLANT: an adjacent top token not yet fired in this chain whose ability can do something.
        Fired f = fired;
        f.f[s.stacks[sp].n - 1] |= uint64_t(1) << sp;
        for (int a : adj[sp]) {
            const Stack &st = s.stacks[a];
            if (st.n && !f.has(a, st.n - 1))
                for (int t2 : t.abilities[st.top()])
                    if (can(t2, a, f)) return true;
        }
        return false;
    }

    Fired fired() const { return Fired{{s.fired[0], s.fired[1], s.fired[2]}}; }

    void iron_options(Out &out) const {
        int moved = s.iron_dest;
        for (int a : t.adj[s.firing])
            if (s.stacks[a].n && a != moved)
                for (int b : t.adj[a])
                    if (s.stacks[b].n < LIMIT) out.push(t.MOVE_(a, b));
    }

    bool has_iron_options() const {
        int buf[64];  // a hex space has at most 6 neighbours: at most 36 moves
        Out out{buf, 0};
        iron_options(out);
        return !out.empty();
    }

    void fire(int ab) {
        int src = s.firing;
        s.fired[s.stacks[src].n - 1] |= uint64_t(1) << src;
        if (ab == BREAD_T) {
            int k = draw_token();
            if (k < 0) {
                end_chain();
                return;
            }
            s.held = k;
            s.fire_after = true;
            s.step = PLACE;
        } else if (ab == CRYSTAL_T) {
            s.drawn.clear();
            for (int i = 0; i < CRYSTAL_DRAW; ++i) {
                int k = draw_token();
                if (k < 0) break;
                s.drawn.push_back(int8_t(k));
            }
            s.step = TAKE;
        } else {
            s.step = STEP_FOR_TYPE[ab];
        }
    }

    void move(int a, int b) { push(b, pop(a)); }

    // ------------------------------------------------------------------ legal actions

    void compute_legal(Out &out) const {
        int p = s.turn;
        if (s.bottom_left) {
            for (int c : sorted(s.hands[p])) out.push(t.BOTTOM_(c));
            return;
        }
        bool coin = !s.coin_used && s.coins[p] > 0;
        int step = s.step;
        if (step == SCORE) {
            out.push(K_DONE);
            if (coin) out.push(K_COIN);
            for (int c : sorted(s.hands[p]))
                if (matches(c)) out.push(t.SCORE_(c));
            return;
        }
        if (step == PLACE) {
            if (coin) out.push(K_COIN);
            int base = t.off[K_PLACE];
            for (uint64_t room = ~s.full & t.all_spaces; room; room &= room - 1) out.push(base + __builtin_ctzll(room));
            return;
        }
        if (step == FIRE) {
            int src = s.firing;
            if (s.fire_optional) out.push(K_SKIP);
            if (coin) out.push(K_COIN);
            Fired f = fired();
            for (int ab : t.abilities[s.stacks[src].top()])
                if (can(ab, src, f)) out.push(t.FIRE_(ab));
            return;
        }
        if (coin) out.push(K_COIN);
        if (step == MEAT) {
            int op[MAX_SPACES];
            int no = opens(op);
            for (int a : t.adj[s.firing])
                if (s.stacks[a].n)
                    for (int i = 0; i < no; ++i)
                        if (op[i] != a) out.push(t.MOVE_(a, op[i]));
        } else if (step == IRON) {
            if (s.iron_dest >= 0) out.push_front(K_DONE);
            iron_options(out);
        } else if (step == POTION) {
            for (int a = 0; a < t.n; ++a) {
                if (!s.stacks[a].n) continue;
                int ka = s.stacks[a].top();
                for (int b = a + 1; b < t.n; ++b)
                    if (s.stacks[b].n && s.stacks[b].top() != ka) out.push(t.SWAP_(a, b));
            }
        } else if (step == PLANT) {
            int src = s.firing;
            Fired f = fired();
            for (int a : t.adj[src]) {
                const Stack &st = s.stacks[a];
                if (st.n && !f.has(a, st.n - 1))
                    for (int ab : t.abilities[st.top()])
                        if (can(ab, a, f)) {
                            out.push(t.USE_(a));
                            break;
                        }
            }
        } else if (step == TAKE) {
            for (int k : sorted(s.drawn))
                if (out.empty() || out.back() != t.TAKE_(k)) out.push(t.TAKE_(k));
        }
    }

    // ------------------------------------------------------------------ applying actions

    [[noreturn]] void refuse(int code, int id, int a = 0, int b = 0) const { throw Refused{code, id, a, b}; }
    [[noreturn]] void not_now(int id) const { refuse(NOT_NOW, id, s.bottom_left ? int(BOTTOM) : s.step); }

    void apply_id(int id, bool check) {
        int step = s.step;
        if (step == OVER) refuse(MATCH_OVER, id);
        int kind = t.act_kind[id];
        if (s.bottom_left)
            on_bottom(id, check);
        else if (kind == K_COIN)
            on_coin(id, check);
        else
            switch (step) {
                case PLACE: on_place(id, check); break;
                case FIRE: on_fire(id, check); break;
                case TAKE: on_take(id, check); break;
                case MEAT: on_meat(id, check); break;
                case IRON: on_iron(id, check); break;
                case POTION: on_potion(id, check); break;
                case PLANT: on_plant(id, check); break;
                default: on_score(id, check); break;
            }
    }

    void apply(int id) {
        apply_id(id, true);
        settle();
    }

    void on_bottom(int id, bool check) {
        if (t.act_kind[id] != K_BOTTOM) not_now(id);
        int c = t.act_a[id];
        int p = s.turn;
        if (check && !contains(s.hands[p], c)) refuse(NOT_IN_HAND, id, c);
        remove_one(s.hands[p], c);
        s.deck.insert(s.deck.begin(), int8_t(c));
        s.known[p].push_back(int8_t(c));
        s.bottom_left -= 1;
    }

    void on_coin(int id, bool check) {
        int p = s.turn;
        if (check) {
            if (s.coin_used) refuse(COIN_ONCE, id);
            if (s.coins[p] <= 0) refuse(NO_COINS, id);
        }
        s.coins[p] -= 1;
        s.coin_used = true;
        for (int i = 0; i < COIN_DRAW; ++i) draw_card(p);
        s.bottom_left = std::min(COIN_BOTTOM, int(s.hands[p].size()));
    }

    void on_score(int id, bool check) {
        int kind = t.act_kind[id];
        if (kind == K_SCORE) {
            int c = t.act_a[id];
            int p = s.turn;
            if (check) {
                if (!contains(s.hands[p], c)) refuse(NOT_IN_HAND, id, c);
                if (!matches(c)) refuse(NO_MATCH, id, c);
            }
            remove_one(s.hands[p], c);
            s.piles[p].push_back(int8_t(c));
        } else if (kind == K_DONE) {
            end_score();
        } else {
            not_now(id);
        }
    }

    void on_place(int id, bool check) {
        if (t.act_kind[id] != K_PLACE) not_now(id);
        int sp = t.act_a[id];
        if (check && s.stacks[sp].n >= LIMIT) refuse(PLACE_FULL, id, sp);
        push(sp, s.held);
        s.held = -1;
        if (s.fire_after) {
            s.firing = sp;
            s.fire_optional = true;
            s.step = FIRE;
        } else {  // crystal: the other drawn tokens go back into the bag; no FIRE UP (FAQ)
            for (int k : s.drawn) to_bag(k);
            s.drawn.clear();
            end_chain();
        }
    }

    void on_fire(int id, bool check) {
        int kind = t.act_kind[id];
        if (kind == K_FIRE) {
            int ab = t.act_a[id];
            if (check) {
                int src = s.firing;
                int k = s.stacks[src].top();
                const auto &abil = t.abilities[k];
                if (std::find(abil.begin(), abil.end(), ab) == abil.end()) refuse(NO_ABILITY, id, k, ab);
                if (!can(ab, src, fired())) refuse(NOTHING_TO_DO, id, ab);
            }
            fire(ab);
        } else if (kind == K_SKIP) {
            if (!s.fire_optional) refuse(PLANT_USES, id);
            end_chain();
        } else {
            not_now(id);
        }
    }

    void on_take(int id, bool check) {
        if (t.act_kind[id] != K_TAKE) not_now(id);
        int k = t.act_a[id];
        if (check && !contains(s.drawn, k)) refuse(NOT_DRAWN, id, k);
        remove_one(s.drawn, k);
        s.held = k;
        s.fire_after = false;
        s.step = PLACE;
    }

    void check_from(int id, int a) const {
        if (!((t.adj_bits[s.firing] >> a) & 1)) refuse(NOT_NEXT, id, a, s.firing);
        if (!s.stacks[a].n) refuse(NO_TOKEN, id, a);
    }

    void check_room(int id, int b) const {
        if (s.stacks[b].n >= LIMIT) refuse(ROOM_FULL, id, b);
    }

    void on_meat(int id, bool check) {
        if (t.act_kind[id] != K_MOVE) not_now(id);
        int a = t.act_a[id], b = t.act_b[id];
        if (check) {
            check_from(id, a);
            check_room(id, b);
        }
        move(a, b);
        end_chain();
    }

    void on_iron(int id, bool check) {
        int kind = t.act_kind[id];
        if (kind == K_MOVE) {
            int a = t.act_a[id], b = t.act_b[id];
            if (check) {
                check_from(id, a);
                if (a == s.iron_dest) refuse(IRON_MOVED, id);
                if (!((t.adj_bits[a] >> b) & 1)) refuse(IRON_NOT_NEXT, id, b, a);
                check_room(id, b);
            }
            move(a, b);
            if (s.iron_dest >= 0) {
                end_chain();
            } else {
                s.iron_dest = b;
                if (!has_iron_options()) end_chain();
            }
        } else if (kind == K_DONE && s.iron_dest >= 0) {
            end_chain();
        } else {
            not_now(id);
        }
    }

    void on_potion(int id, bool check) {
        if (t.act_kind[id] != K_SWAP) not_now(id);
        int a = t.act_a[id], b = t.act_b[id];
        if (check) {
            if (!s.stacks[a].n || !s.stacks[b].n) refuse(NO_TOKEN, id, !s.stacks[a].n ? a : b);
            if (s.stacks[a].top() == s.stacks[b].top()) refuse(SAME_SWAP, id, s.stacks[a].top());
        }
        int ka = pop(a), kb = pop(b);
        push(a, kb);
        push(b, ka);
        end_chain();
    }

    void on_plant(int id, bool check) {
        if (t.act_kind[id] != K_USE) not_now(id);
        int a = t.act_a[id];
        if (check) {
            check_from(id, a);
            const Stack &st = s.stacks[a];
            Fired f = fired();
            if (f.has(a, st.n - 1)) refuse(ALREADY_FIRED, id, a);
            bool any = false;
            for (int ab : t.abilities[st.top()])
                if (can(ab, a, f)) {
                    any = true;
                    break;
                }
            if (!any) refuse(NO_USEFUL, id, a);
        }
        s.firing = a;
        s.fire_optional = false;
        s.step = FIRE;
    }
};

// ------------------------------------------------------------------ the seeded deal (game.py, DualsGame._deal)

void deal(const Tables &t, State &s, bool buddy, uint64_t seed) {
    s.buddy = buddy;
    s.rng.state = mix(seed);
    Rng &rng = s.rng;
    // Room for what the lists hold in a match, made once here (no growing as the match goes; a hand holds at
    // most HAND_SIZE + COIN_DRAW cards, crystal draws CRYSTAL_DRAW tokens).
    Ints &deck = s.deck;
    deck.reserve(size_t(t.m));
    for (int p = 0; p < 2; ++p) {
        s.hands[p].reserve(8);
        s.piles[p].reserve(size_t(t.m));
        s.known[p].reserve(8);
    }
    s.drawn.reserve(CRYSTAL_DRAW);
    for (int c = 1; c <= t.m; ++c) deck.push_back(int8_t(c));
    rng.shuffle(deck);
    for (int p = 0; p < 2; ++p)
        for (int i = 0; i < HAND_SIZE; ++i)
            if (!deck.empty()) {
                s.hands[p].push_back(deck.back());
                deck.pop_back();
            }
    // D3: each player draws a token; the higher FIRE UP rank starts; equal: both go back, draw again.
    int np = int(t.pool.size());
    while (true) {
        int i = rng.below(np);
        int j = rng.below(np - 1);
        if (j >= i) ++j;
        int t0 = t.pool[i], t1 = t.pool[j];
        s.first_draws.push_back({int8_t(t0), int8_t(t1)});
        int r0 = t.rank[t0], r1 = t.rank[t1];
        if (r0 != r1) {
            s.first = r0 > r1 ? 0 : 1;
            break;
        }
    }
    // D2: one artisan of each type at random on the inner ring, one of each as the reserve, the rest in the bag.
    std::array<int, NUM_TYPES> types = {0, 1, 2, 3, 4, 5};
    rng.shuffle(types);
    for (int i = 0; i < NUM_TYPES; ++i) {
        Stack &st = s.stacks[t.inner[i]];
        st.v[0] = int8_t(types[i]);
        st.n = 1;
    }
    s.reserve = {0, 1, 2, 3, 4, 5};
    Ints &bag = s.bag;
    bag.reserve(t.bag.size() + size_t(t.buddy_tokens) + NUM_TYPES);  // the reserve joins the bag once it is empty
    bag.assign(t.bag.begin(), t.bag.end());
    if (buddy)
        for (int i = 0; i < t.buddy_tokens; ++i) bag.push_back(int8_t(t.buddy_kind));
    rng.shuffle(bag);
    Engine{t, s}.index_board();
}

// ------------------------------------------------------------------ the views (state.py, observe; view.py's JSON)

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
    void comma() {
        if (!o.empty() && o.back() != '{' && o.back() != '[') o += ',';
    }
    void str(const std::string &x) {  // names and notation: ASCII letters, digits, '+' and spaces only
        o += '"';
        o += x;
        o += '"';
    }
    void boolean(bool b) { o += b ? "true" : "false"; }
    template <typename V>
    void ints(const V &v) {
        o += '[';
        for (int x : v) {
            comma();
            num(x);
        }
        o += ']';
    }
    template <typename V>
    void kinds(const Tables &t, const V &v) {
        o += '[';
        for (int k : v) {
            comma();
            str(t.kind_name[k]);
        }
        o += ']';
    }
    void space_or_null(const Tables &t, int sp) {
        if (sp >= 0)
            str(t.space_name[sp]);
        else
            raw("null");
    }
};

std::string view_json(const Tables &t, State &s, int seat, bool spectator) {
    Engine e{t, s};
    Json j;
    j.raw("{");
    j.key("seat");
    if (spectator) j.raw("null"); else j.num(seat);
    j.key("to_act");
    if (s.step == OVER) j.raw("null"); else j.num(s.turn);
    j.key("turn");
    j.num(s.turn);
    j.key("turn_number");
    j.num(s.turn_number);
    j.key("phase");
    j.str(STEP_NAME[s.bottom_left ? int(BOTTOM) : s.step]);
    j.key("last_chance");
    j.boolean(s.last);
    j.key("end_triggered");
    j.boolean(s.ended);
    j.key("board");
    j.raw("{");
    for (int sp = 0; sp < t.n; ++sp) {
        const Stack &st = s.stacks[sp];
        if (!st.n) continue;
        j.key(t.space_name[sp].c_str());
        j.raw("[");
        for (int i = 0; i < st.n; ++i) {
            j.comma();
            j.str(t.kind_name[st.v[i]]);
        }
        j.raw("]");
    }
    j.raw("}");
    j.key("bag");
    j.raw("{");
    {
        std::vector<int> counts(t.kinds, 0);
        for (int k : s.bag) counts[k] += 1;
        for (int k = 0; k < t.kinds; ++k)
            if (counts[k]) {
                j.key(t.kind_name[k].c_str());
                j.num(counts[k]);
            }
    }
    j.raw("}");
    j.key("bag_size");
    j.num(long(s.bag.size()));
    j.key("reserve");
    j.kinds(t, sorted(s.reserve));
    j.key("held");
    if (s.held >= 0) j.str(t.kind_name[s.held]); else j.raw("null");
    j.key("drawn");
    j.kinds(t, sorted(s.drawn));
    j.key("src");
    j.space_or_null(t, s.firing);
    j.key("fired");
    j.raw("[");
    for (int sp = 0; sp < t.n; ++sp)
        for (int lv = 0; lv < LIMIT; ++lv)
            if ((s.fired[lv] >> sp) & 1) {
                j.comma();
                j.raw("[");
                j.str(t.space_name[sp]);
                j.raw(",");
                j.num(lv);
                j.raw("]");
            }
    j.raw("]");
    j.key("iron_dest");
    j.space_or_null(t, s.iron_dest);
    j.key("coin_used");
    j.boolean(s.coin_used);
    j.key("bottom_left");
    j.num(s.bottom_left);
    j.key("deck_size");
    j.num(long(s.deck.size()));
    j.key("first_player");
    j.num(s.first);
    j.key("first_draws");
    j.raw("[");
    for (auto [a, b] : s.first_draws) {
        j.comma();
        j.raw("[");
        j.str(t.kind_name[a]);
        j.raw(",");
        j.str(t.kind_name[b]);
        j.raw("]");
    }
    j.raw("]");
    j.key("seats");
    j.raw("[");
    for (int p = 0; p < 2; ++p) {
        j.comma();
        j.raw("{");
        j.key("coins");
        j.num(s.coins[p]);
        j.key("hand_size");
        j.num(long(s.hands[p].size()));
        j.key("pile");
        j.ints(s.piles[p]);
        j.key("points");
        j.num(e.points(p));
        j.raw("}");
    }
    j.raw("]");
    Ints hand, matching;
    std::vector<std::pair<int, int>> known;
    bool legal = false;
    if (!spectator) {
        for (int c : sorted(s.hands[seat])) hand.push_back(int8_t(c));
        matching = e.matching(seat);
        for (int c : s.known[seat]) {
            auto it = std::find(s.deck.begin(), s.deck.end(), int8_t(c));
            known.push_back({c, int(it - s.deck.begin())});
        }
        std::stable_sort(known.begin(), known.end(), [](auto x, auto y) { return x.second < y.second; });
        legal = s.step != OVER && s.turn == seat;
    }
    j.key("hand");
    j.ints(hand);
    j.key("matching");
    j.ints(matching);
    j.key("bottom_known");
    j.raw("[");
    for (auto [c, pos] : known) {
        j.comma();
        j.raw("[");
        j.num(c);
        j.raw(",");
        j.num(pos);
        j.raw("]");
    }
    j.raw("]");
    j.key("legal");
    j.raw("[");
    if (legal)
        for (int id : s.legal) {
            j.comma();
            j.str(t.text[id]);
        }
    j.raw("]");
    j.key("outcome");
    if (s.over) {
        j.raw("{");
        j.key("winner");
        if (s.winner >= 0) j.num(s.winner); else j.raw("null");
        j.key("reason");
        j.str(REASON_VALUE[s.reason]);
        j.key("scores");
        j.raw("[");
        j.num(s.points[0]);
        j.raw(",");
        j.num(s.points[1]);
        j.raw("]}");
    } else {
        j.raw("null");
    }
    j.key("step");
    j.str(STEP_NAME[s.step]);
    j.key("fire_after");
    j.boolean(s.fire_after);
    j.key("fire_optional");
    j.boolean(s.fire_optional);
    j.key("buddy");
    j.boolean(s.buddy);
    j.raw("}");
    return j.o;
}

// ------------------------------------------------------------------ observations (issue 26, point 3)

// One seat's view (observe() of state.py) as plain values: what the encoder reads, and nothing else. The bag is its
// contents (counts per kind), never its order; the deck its size and the places of the cards this seat put at the
// bottom; the other seat's hand its size.
struct SeatInfo {
    int coins, hand_size, points;
    const Ints *pile;
};
struct View {
    int seat, to_act, turn, turn_number, phase, step, held, src, iron_dest, bottom_left, deck_size, first, bag_size;
    bool last_chance, end_triggered, coin_used, fire_after, fire_optional, buddy;
    const std::array<Stack, MAX_SPACES> *board;
    const uint64_t *fired;  // per level, the spaces whose token at that level fired in this chain
    int16_t bag[128], reserve[128], drawn[128];  // per kind (the first ``kinds`` of them)
    SeatInfo seats[2];
    Sorted hand, matching;
    int nknown;
    std::pair<int8_t, int8_t> known[128];  // (card, place from the bottom)
    bool over;
    int winner;  // -1: none (a shared victory)
};

void seat_view(const Tables &t, State &s, int seat, View &v) {
    Engine e{t, s};
    v.seat = seat;
    v.to_act = s.step == OVER ? -1 : s.turn;
    v.turn = s.turn;
    v.turn_number = s.turn_number;
    v.phase = s.bottom_left ? int(BOTTOM) : s.step;
    v.step = s.step;
    v.last_chance = s.last;
    v.end_triggered = s.ended;
    v.board = &s.stacks;
    int kinds = t.kinds;
    std::fill(v.bag, v.bag + kinds, int16_t(0));
    std::fill(v.reserve, v.reserve + kinds, int16_t(0));
    std::fill(v.drawn, v.drawn + kinds, int16_t(0));
    for (int k : s.bag) v.bag[k] += 1;
    v.bag_size = int(s.bag.size());
    for (int k : s.reserve) v.reserve[k] += 1;
    v.held = s.held;
    for (int k : s.drawn) v.drawn[k] += 1;
    v.src = s.firing;
    v.fired = s.fired;
    v.iron_dest = s.iron_dest;
    v.coin_used = s.coin_used;
    v.bottom_left = s.bottom_left;
    v.deck_size = int(s.deck.size());
    v.first = s.first;
    for (int p = 0; p < 2; ++p) v.seats[p] = SeatInfo{s.coins[p], int(s.hands[p].size()), e.points(p), &s.piles[p]};
    v.hand = sorted(s.hands[seat]);
    v.matching.n = 0;
    for (int c : v.hand)
        if (e.matches(c)) v.matching.v[v.matching.n++] = int8_t(c);
    v.nknown = 0;
    for (int c : s.known[seat]) {
        if (v.nknown == 128) break;
        auto it = std::find(s.deck.begin(), s.deck.end(), int8_t(c));
        v.known[v.nknown++] = {int8_t(c), int8_t(it - s.deck.begin())};
    }
    v.over = s.over;
    v.winner = s.over ? s.winner : -1;
    v.fire_after = s.fire_after;
    v.fire_optional = s.fire_optional;
    v.buddy = s.buddy;
}

// DualsObservation's layout (observation.py): its offsets, in the order duals/native.py's NativeEncoder gives them,
// and its scales.
struct Layout {
    int board, tops, filled, bag, bag_size, reserve, held, drawn, phase, step, src, iron, fired, flags, bottom_left,
        turn, deck, hand, matching, bottom, outcome, size;
    int seat[2][5];  // per seat (mine, the opponent's): coins, hand size, points, pile less one, pile size
    int kinds, spaces, num_cards;
    double tokens, turn_scale, hand_scale, vp_scale, cards;
    std::vector<double> inv_supply;  // per kind, 1 / its count in the data
    std::vector<int> types;          // per kind, the types it shows (bits)
};
constexpr int LAYOUT_OFFSETS = 22;

// DualsObservation.encode(view, out), from the seat's view as the state gives it.
void encode(const View &v, const Layout &L, float *out) {
    std::memset(out, 0, size_t(L.size) * sizeof(float));  // 0.0f is all zero bits (one memset, not a float loop)
    int me = v.seat;
    int k = L.kinds;
    double c = L.cards;
    auto one = [&](int i) { out[i] = 1.0f; };
    auto val = [&](int i, double x) { out[i] = float(x); };
    one(L.phase + v.phase);
    one(L.step + v.step);
    val(L.bag_size, v.bag_size / L.tokens);
    val(L.bottom_left, v.bottom_left / double(COIN_BOTTOM));
    val(L.turn, std::min(v.turn_number / L.turn_scale, 1.0));
    val(L.deck, v.deck_size / c);
    for (int sp = 0; sp < MAX_SPACES; ++sp) {
        const Stack &st = (*v.board)[sp];
        if (!st.n) continue;
        for (int level = 0; level < st.n; ++level) {
            one(L.board + (sp * LIMIT + level) * k + st.v[level]);
            one(L.filled + sp * LIMIT + level);
        }
        for (int m = L.types[st.top()], x = 0; m; m >>= 1, ++x)
            if (m & 1) one(L.tops + sp * NUM_TYPES + x);
    }
    for (int kind = 0; kind < k; ++kind) {
        if (v.bag[kind]) val(L.bag + kind, v.bag[kind] * L.inv_supply[kind]);
        if (v.reserve[kind]) val(L.reserve + kind, v.reserve[kind] * L.inv_supply[kind]);
        if (v.drawn[kind]) val(L.drawn + kind, v.drawn[kind] / double(CRYSTAL_DRAW));
    }
    if (v.held >= 0) one(L.held + v.held);
    if (v.src >= 0) one(L.src + v.src);
    if (v.iron_dest >= 0) one(L.iron + v.iron_dest);
    for (int level = 0; level < LIMIT; ++level)
        for (uint64_t bits = v.fired[level]; bits; bits &= bits - 1)
            one(L.fired + __builtin_ctzll(bits) * LIMIT + level);
    const bool flags[] = {v.fire_after, v.fire_optional, v.coin_used, v.last_chance, v.end_triggered, v.buddy,
                          v.turn == me, v.to_act == me, v.first == me};
    for (int i = 0; i < 9; ++i)
        if (flags[i]) one(L.flags + i);
    for (int side = 0; side < 2; ++side) {
        const SeatInfo &info = v.seats[side == 0 ? me : 1 - me];
        const int *o = L.seat[side];
        val(o[0], info.coins / double(START_COINS));
        val(o[1], std::min(info.hand_size / L.hand_scale, 1.0));
        val(o[2], std::min(info.points / L.vp_scale, 1.0));
        val(o[4], double(info.pile->size()) / c);
        for (int card : *info.pile) one(o[3] + card);
    }
    for (int card : v.hand) one(L.hand - 1 + card);
    for (int card : v.matching) one(L.matching - 1 + card);
    for (int i = 0; i < v.nknown; ++i) val(L.bottom - 1 + v.known[i].first, (v.known[i].second + 1) / c);
    if (v.over) {
        one(L.outcome);
        if (v.winner >= 0) one(L.outcome + 1 + (v.winner != me));
    }
}

void encode_state(const Tables &t, State &s, int seat, const Layout &L, float *out) {
    View v;
    seat_view(t, s, seat, v);
    encode(v, L, out);
}

struct DualsEncoder {
    Layout L;
};

DualsEncoder make_encoder(nb::handle offsets, nb::handle seats, nb::dict scales, nb::handle inv_supply,
                          nb::handle types) {
    DualsEncoder e{};
    Layout &L = e.L;
    int *f = &L.board;
    if (nb::len(offsets) != LAYOUT_OFFSETS) throw nb::value_error("22 offsets expected");
    for (int i = 0; i < LAYOUT_OFFSETS; ++i) f[i] = nb::cast<int>(offsets[i]);
    for (int side = 0; side < 2; ++side)
        for (int j = 0; j < 5; ++j) L.seat[side][j] = nb::cast<int>(seats[side][j]);
    L.tokens = nb::cast<double>(scales["tokens"]);
    L.turn_scale = nb::cast<double>(scales["turn_scale"]);
    L.hand_scale = nb::cast<double>(scales["hand_scale"]);
    L.vp_scale = nb::cast<double>(scales["vp_scale"]);
    L.cards = nb::cast<double>(scales["cards"]);
    L.spaces = nb::cast<int>(scales["spaces"]);
    L.num_cards = int(L.cards);
    for (nb::handle x : inv_supply) L.inv_supply.push_back(nb::cast<double>(x));
    for (nb::handle x : types) L.types.push_back(nb::cast<int>(x));
    L.kinds = int(L.types.size());
    if (L.kinds > 127 || L.inv_supply.size() != L.types.size()) throw nb::value_error("the layout's token kinds");
    return e;
}

using Obs = nb::ndarray<float, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

// ------------------------------------------------------------------ Python's side

struct DualsTables {
    std::shared_ptr<Tables> t;
};

PyObject *str_id = nullptr;

// Two lists of the legal actions a state keeps to hand out again (issue 26, P3): a list nobody else holds any more
// (its reference count back to the state's own one) is refilled in place instead of a new list being made and the
// old one freed, which cost more than the rules' work of a step. Each list handed out is nobody else's: the caller
// may keep, change or drop it, as a new list. A copy of a state starts without lists of its own.
struct ListCache {
    PyObject *slot[2] = {nullptr, nullptr};
    ListCache() = default;
    ListCache(const ListCache &) {}
    ListCache(ListCache &&o) noexcept : slot{o.slot[0], o.slot[1]} { o.slot[0] = o.slot[1] = nullptr; }
    ListCache &operator=(const ListCache &) { return *this; }
    ListCache &operator=(ListCache &&o) noexcept {
        std::swap(slot[0], o.slot[0]);
        std::swap(slot[1], o.slot[1]);
        return *this;
    }
    ~ListCache() {  // a state is freed by Python, the GIL held
        Py_XDECREF(slot[0]);
        Py_XDECREF(slot[1]);
    }
};

struct DualsState {
    std::shared_ptr<const Tables> t;
    State s;
    nb::object outcome_cache;
    ListCache lists{};

    PyObject *new_list() const {
        int n = int(s.legal.size());
        PyObject *list = PyList_New(n);
        if (!list) throw nb::python_error();
        for (int i = 0; i < n; ++i) {
            PyObject *a = t->action[s.legal[i]];
            Py_INCREF(a);
            PyList_SET_ITEM(list, i, a);
        }
        return list;
    }

    void refill(PyObject *list) const {
        auto *l = reinterpret_cast<PyListObject *>(list);
        Py_ssize_t n = Py_ssize_t(s.legal.size());
        PyObject **items = l->ob_item;
        for (Py_ssize_t i = 0, old = Py_SIZE(l); i < old; ++i) Py_DECREF(items[i]);  // the game's actions: kept alive
        if (n > l->allocated) {
            Py_ssize_t room = std::max<Py_ssize_t>(n, 32);
            items = static_cast<PyObject **>(PyMem_Realloc(items, size_t(room) * sizeof(PyObject *)));
            if (!items) {
                Py_SET_SIZE(l, 0);
                throw std::bad_alloc();
            }
            l->ob_item = items;
            l->allocated = room;
        }
        const int *ids = s.legal.data();
        PyObject *const *action = t->action.data();
        for (Py_ssize_t i = 0; i < n; ++i) {
            PyObject *a = action[ids[i]];
            Py_INCREF(a);
            items[i] = a;
        }
        Py_SET_SIZE(l, n);
    }

    nb::object legal_actions() {
        for (PyObject *&kept : lists.slot) {
            if (!kept) {
                kept = new_list();
                Py_INCREF(kept);
                return nb::steal(kept);
            }
            if (Py_REFCNT(kept) == 1) {
                refill(kept);
                Py_INCREF(kept);
                return nb::steal(kept);
            }
        }
        return nb::steal(new_list());
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
        if (id < 0 || id >= t->num_actions) throw nb::value_error("not a Flamecraft Duals action");
        try {
            Engine{*t, s}.apply(int(id));
        } catch (const Refused &r) {
            nb::object exc = t->illegal(r.code, r.action, r.a, r.b);
            PyErr_SetObject(reinterpret_cast<PyObject *>(Py_TYPE(exc.ptr())), exc.ptr());
            throw nb::python_error();
        }
    }

    nb::object outcome() {
        if (!s.over) return nb::none();
        if (!outcome_cache.is_valid() || outcome_cache.is_none())
            outcome_cache = t->make_outcome(s.winner >= 0 ? nb::object(nb::int_(s.winner)) : nb::none(), s.reason,
                                            s.points[0], s.points[1]);
        return outcome_cache;
    }

    DualsState clone() const { return DualsState{t, s, outcome_cache}; }

    std::string json(nb::handle seat) {
        if (seat.is_none()) return view_json(*t, s, 0, true);
        if (!PyLong_CheckExact(seat.ptr())) throw nb::value_error("seat must be 0, 1 or None");
        long v = PyLong_AsLong(seat.ptr());
        if (v != 0 && v != 1) throw nb::value_error("seat must be 0, 1 or None");
        return view_json(*t, s, int(v), false);
    }
};

template <typename V>
nb::list as_list(const V &v) {
    nb::list out;
    for (int x : v) out.append(x);
    return out;
}

Ints ints_of(nb::handle src) {
    Ints out;
    for (nb::handle x : src) out.push_back(int8_t(nb::cast<int>(x)));
    return out;
}

nb::dict fields(const DualsState &d) {
    const State &s = d.s;
    const Tables &t = *d.t;
    nb::dict f;
    nb::list stacks;
    for (int sp = 0; sp < t.n; ++sp) {
        nb::list st;
        for (int i = 0; i < s.stacks[sp].n; ++i) st.append(int(s.stacks[sp].v[i]));
        stacks.append(nb::tuple(st));
    }
    f["stacks"] = stacks;
    f["bag"] = as_list(s.bag);
    f["reserve"] = as_list(s.reserve);
    f["deck"] = as_list(s.deck);
    f["drawn"] = as_list(s.drawn);
    nb::list hands, piles, known;
    for (int p = 0; p < 2; ++p) {
        hands.append(as_list(s.hands[p]));
        piles.append(as_list(s.piles[p]));
        known.append(as_list(s.known[p]));
    }
    f["hands"] = hands;
    f["piles"] = piles;
    f["known_bottom"] = known;
    nb::list coins;
    coins.append(s.coins[0]);
    coins.append(s.coins[1]);
    f["coins"] = coins;
    f["rng_state"] = nb::int_(s.rng.state);
    f["first"] = s.first;
    nb::list draws;
    for (auto [a, b] : s.first_draws) draws.append(nb::make_tuple(int(a), int(b)));
    f["first_draws"] = draws;
    f["buddy"] = s.buddy;
    f["turn"] = s.turn;
    f["turn_number"] = s.turn_number;
    f["step"] = s.step;
    f["firing_space"] = s.firing;
    f["held"] = s.held;
    f["fire_after"] = s.fire_after;
    f["fire_optional"] = s.fire_optional;
    nb::list fired;  // (space, level) pairs, bit space * 3 + level ascending
    for (int sp = 0; sp < t.n; ++sp)
        for (int lv = 0; lv < LIMIT; ++lv)
            if ((s.fired[lv] >> sp) & 1) fired.append(nb::make_tuple(sp, lv));
    f["fired"] = fired;
    f["iron_destination"] = s.iron_dest;
    f["coin_used"] = s.coin_used;
    f["bottom_left"] = s.bottom_left;
    f["ended"] = s.ended;
    f["last"] = s.last;
    f["legal"] = as_list(s.legal);
    return f;
}

DualsState from_fields(const DualsTables &tables, nb::dict f) {
    const Tables &t = *tables.t;
    DualsState d{tables.t, State{}, nb::none()};
    State &s = d.s;
    int sp = 0;
    for (nb::handle st : f["stacks"]) {
        Ints v = ints_of(st);
        if (v.size() > LIMIT) throw nb::value_error("a stack of more than 3 tokens");
        s.stacks[sp].n = int8_t(v.size());
        for (size_t i = 0; i < v.size(); ++i) s.stacks[sp].v[i] = v[i];
        ++sp;
    }
    if (sp != t.n) throw nb::value_error("the stacks are not the board's");
    Engine{t, s}.index_board();
    s.bag = ints_of(f["bag"]);
    s.reserve = ints_of(f["reserve"]);
    s.deck = ints_of(f["deck"]);
    s.drawn = ints_of(f["drawn"]);
    for (int p = 0; p < 2; ++p) {
        s.hands[p] = ints_of(nb::handle(f["hands"])[p]);
        s.piles[p] = ints_of(nb::handle(f["piles"])[p]);
        s.known[p] = ints_of(nb::handle(f["known_bottom"])[p]);
        s.coins[p] = nb::cast<int>(nb::handle(f["coins"])[p]);
    }
    s.rng.state = nb::cast<uint64_t>(f["rng_state"]);
    s.first = nb::cast<int>(f["first"]);
    for (nb::handle pr : f["first_draws"])
        s.first_draws.push_back({int8_t(nb::cast<int>(pr[0])), int8_t(nb::cast<int>(pr[1]))});
    s.buddy = nb::cast<bool>(f["buddy"]);
    s.turn = nb::cast<int>(f["turn"]);
    s.turn_number = nb::cast<int>(f["turn_number"]);
    s.step = nb::cast<int>(f["step"]);
    s.firing = nb::cast<int>(f["firing_space"]);
    s.held = nb::cast<int>(f["held"]);
    s.fire_after = nb::cast<bool>(f["fire_after"]);
    s.fire_optional = nb::cast<bool>(f["fire_optional"]);
    for (nb::handle pr : f["fired"]) {
        int a = nb::cast<int>(pr[0]), lv = nb::cast<int>(pr[1]);
        s.fired[lv] |= uint64_t(1) << a;
    }
    s.iron_dest = nb::cast<int>(f["iron_destination"]);
    s.coin_used = nb::cast<bool>(f["coin_used"]);
    s.bottom_left = nb::cast<int>(f["bottom_left"]);
    s.ended = nb::cast<bool>(f["ended"]);
    s.last = nb::cast<bool>(f["last"]);
    if (s.step == OVER) {
        Engine{t, s}.finish();
    } else {
        int *buf = t.scratch.data();
        Out acts{buf, 0};
        Engine{t, s}.compute_legal(acts);
        s.legal.assign(buf, buf + acts.n);
    }
    return d;
}

DualsState new_match(const DualsTables &tables, bool buddy, uint64_t seed) {
    DualsState d{tables.t, State{}, nb::none()};
    Engine e{*tables.t, d.s};
    deal(*tables.t, d.s, buddy, seed);
    e.start_turn(d.s.first);
    e.settle();
    return d;
}

// ------------------------------------------------------------------ the batch API (issue 26, point 4)

// N matches stepped in one call, each dealt again with its next seed when it ends: slot i plays the seeds
// first_seed + i, first_seed + i + N, first_seed + i + 2N...
struct DualsBatch {
    std::shared_ptr<const Tables> t;
    bool buddy;
    int n;
    std::vector<State> states;
    std::vector<uint64_t> seeds;
    int threads = 1;  // the matches are split among this many threads in each call (1: the caller's only)

    // f(lo, hi, scratch) over [0, n) in ``threads`` contiguous parts, each on its own thread (the first on this
    // one) with its own scratch buffer; the matches share nothing mutable, so the results are those of one thread.
    template <typename F>
    void in_parallel(F &&f) {
        int k = std::max(1, std::min(threads, n));
        size_t room = size_t(t->num_actions) + 1;
        if (k == 1) {
            std::vector<int> scratch(room);
            f(0, n, scratch.data());
            return;
        }
        std::vector<std::thread> pool;
        std::vector<std::exception_ptr> errors(static_cast<size_t>(k));
        for (int j = 1; j < k; ++j)
            pool.emplace_back([&, j] {
                try {
                    std::vector<int> scratch(room);
                    f(n * j / k, n * (j + 1) / k, scratch.data());
                } catch (...) {
                    errors[size_t(j)] = std::current_exception();
                }
            });
        try {
            std::vector<int> scratch(room);
            f(0, n / k, scratch.data());
        } catch (...) {
            errors[0] = std::current_exception();
        }
        for (auto &th : pool) th.join();
        for (auto &e : errors)
            if (e) std::rethrow_exception(e);
    }

    void reset(int i, int *scratch) {
        State &s = states[size_t(i)];
        s = State{};
        deal(*t, s, buddy, seeds[size_t(i)]);
        Engine e{*t, s, scratch};
        e.start_turn(s.first);
        e.settle();
    }

    DualsBatch(const DualsTables &tables, int count, bool buddy_, uint64_t first_seed)
        : t(tables.t), buddy(buddy_), n(count) {
        if (count < 1) throw nb::value_error("a batch holds at least one match");
        if (buddy && !t->buddy_tokens) throw nb::value_error("the data has no Buddy token for the Buddy variant");
        states.resize(size_t(count));
        seeds.resize(size_t(count));
        std::vector<int> scratch(size_t(t->num_actions) + 1);
        for (int i = 0; i < n; ++i) {
            seeds[size_t(i)] = first_seed + uint64_t(i);
            reset(i, scratch.data());
        }
    }

    void write_mask(int i, uint8_t *mask, int8_t *to_act) const {
        size_t na = size_t(t->num_actions);
        uint8_t *row = mask + size_t(i) * na;
        std::fill(row, row + na, uint8_t(0));
        const State &s = states[size_t(i)];
        for (int id : s.legal) row[id] = 1;
        to_act[i] = int8_t(s.step == OVER ? -1 : s.turn);
    }

    using Ids = nb::ndarray<const int64_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
    using Mask = nb::ndarray<uint8_t, nb::ndim<2>, nb::c_contig, nb::device::cpu>;
    using Rewards = nb::ndarray<float, nb::ndim<2>, nb::c_contig, nb::device::cpu>;
    using Flags = nb::ndarray<bool, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
    using Seats = nb::ndarray<int8_t, nb::ndim<1>, nb::c_contig, nb::device::cpu>;

    void check(const Mask &mask, const Seats &to_act) const {
        if (mask.shape(0) != size_t(n) || mask.shape(1) != size_t(t->num_actions) || to_act.shape(0) != size_t(n))
            throw nb::value_error("the batch's arrays: mask[N, the number of actions], to_act[N]");
    }

    void observe(Mask mask, Seats to_act) {
        check(mask, to_act);
        for (int i = 0; i < n; ++i) write_mask(i, mask.data(), to_act.data());
    }

    // Every match plays its action (for the seat to act); a finished one gives its rewards (+1 win, -1 loss, 0 a
    // shared victory, as the learning environments), done, and starts its next match. The masks and seats to act
    // are then the matches' now. An illegal action raises the reference's IllegalAction before any match moves.
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
                const std::vector<int> &legal = states[size_t(i)].legal;
                if (a[i] < 0 || a[i] >= t->num_actions ||
                    std::find(legal.begin(), legal.end(), int(a[i])) == legal.end())
                    bad = i;
            }
            if (bad < 0) {
                float *r = rewards.data();
                bool *d = dones.data();
                uint8_t *mk = mask.data();
                int8_t *ta = to_act.data();
                in_parallel([&](int lo, int hi, int *scratch) {
                    for (int i = lo; i < hi; ++i) {
                        State &s = states[size_t(i)];
                        Engine{*t, s, scratch}.apply(int(a[i]));
                        r[2 * i] = r[2 * i + 1] = 0.0f;
                        d[i] = s.over;
                        if (s.over) {
                            if (s.winner >= 0) {
                                r[2 * i + s.winner] = 1.0f;
                                r[2 * i + 1 - s.winner] = -1.0f;
                            }
                            seeds[size_t(i)] += uint64_t(n);
                            reset(i, scratch);
                        }
                        write_mask(i, mk, ta);
                    }
                });
            }
        }
        if (bad >= 0) {
            if (a[bad] < 0 || a[bad] >= t->num_actions) throw nb::value_error("an action id out of the action space");
            State copy = states[size_t(bad)];
            try {
                Engine{*t, copy}.apply(int(a[bad]));
            } catch (const Refused &r) {
                nb::object exc = t->illegal(r.code, r.action, r.a, r.b);
                PyErr_SetObject(reinterpret_cast<PyObject *>(Py_TYPE(exc.ptr())), exc.ptr());
                throw nb::python_error();
            }
            throw std::logic_error("flametable native duals: a legal action was not listed");
        }
    }

    DualsState state(int i) const {
        if (i < 0 || i >= n) throw nb::index_error("no such match in the batch");
        return DualsState{t, states[size_t(i)], nb::none()};
    }
    uint64_t seed(int i) const {
        if (i < 0 || i >= n) throw nb::index_error("no such match in the batch");
        return seeds[size_t(i)];
    }
};

void check_layout(const Tables &t, const Layout &L) {
    if (L.kinds != t.kinds || L.spaces != t.n || L.num_cards != t.m)
        throw nb::value_error("the encoder's layout is not this game's data");
}

// Each match's observation for its seat to act, into obs[N, L].
void batch_encode(DualsBatch &b, const DualsEncoder &enc,
                  nb::ndarray<float, nb::ndim<2>, nb::c_contig, nb::device::cpu> obs) {
    check_layout(*b.t, enc.L);
    if (obs.shape(0) != size_t(b.n) || obs.shape(1) != size_t(enc.L.size))
        throw nb::value_error("the batch's observations: obs[N, the layout's length]");
    nb::gil_scoped_release released;
    float *o = obs.data();
    b.in_parallel([&](int lo, int hi, int *) {
        for (int i = lo; i < hi; ++i) {
            State &s = b.states[size_t(i)];
            encode_state(*b.t, s, s.turn, enc.L, o + size_t(i) * size_t(enc.L.size));
        }
    });
}

DualsTables make_tables(nb::dict g) {
    auto t = std::make_shared<Tables>();
    t->n = nb::cast<int>(g["spaces"]);
    t->m = nb::cast<int>(g["cards"]);
    t->kinds = nb::cast<int>(g["kinds"]);
    t->buddy_kind = nb::cast<int>(g["buddy_kind"]);
    t->buddy_tokens = nb::cast<int>(g["buddy_tokens"]);
    if (t->n < 1 || t->n > 61 || t->kinds > 127 || t->m > 127)
        throw nb::value_error("DualsTables: at most 61 spaces, 127 token kinds and 127 cards");
    t->all_spaces = t->n == 64 ? ~uint64_t(0) : (uint64_t(1) << t->n) - 1;
    int i = 0;
    for (nb::handle o : g["offsets"]) t->off[i++] = nb::cast<int>(o);
    for (nb::handle row : g["adj"]) {
        std::vector<int> a;
        uint64_t bits = 0;
        for (nb::handle x : row) {
            a.push_back(nb::cast<int>(x));
            bits |= uint64_t(1) << a.back();
        }
        t->adj.push_back(a);
        t->adj_bits.push_back(bits);
    }
    for (nb::handle x : g["inner"]) t->inner.push_back(nb::cast<int>(x));
    for (nb::handle row : g["abilities"]) {
        std::vector<int> a;
        for (nb::handle x : row) a.push_back(nb::cast<int>(x));
        t->abilities.push_back(a);
    }
    for (nb::handle x : g["kind_mask"]) t->kind_mask.push_back(nb::cast<int>(x));
    for (nb::handle x : g["rank"]) t->rank.push_back(nb::cast<int>(x));
    for (nb::handle x : g["pool"]) t->pool.push_back(nb::cast<int>(x));
    for (nb::handle x : g["bag"]) t->bag.push_back(nb::cast<int>(x));
    for (nb::handle x : g["vp"]) t->vp.push_back(nb::cast<int>(x));
    for (nb::handle x : g["starburst"]) t->starburst.push_back(char(nb::cast<bool>(x)));
    for (nb::handle card : g["patterns"]) {
        std::vector<int16_t> code;
        for (nb::handle pl : card) {
            nb::handle fixed = pl[0], groups = pl[1];
            size_t start = code.size();
            code.push_back(0);
            code.push_back(int16_t(nb::len(fixed)));
            for (nb::handle fx : fixed) {
                code.push_back(int16_t(nb::cast<int>(fx[0])));
                code.push_back(int16_t(nb::cast<int>(fx[1])));
            }
            if (nb::len(groups) > NUM_TYPES) throw nb::value_error("DualsTables: more variables than types");
            code.push_back(int16_t(nb::len(groups)));
            for (nb::handle grp : groups) {
                code.push_back(int16_t(nb::len(grp)));
                for (nb::handle x : grp) code.push_back(int16_t(nb::cast<int>(x)));
            }
            code[start] = int16_t(code.size() - start);
        }
        t->patterns.push_back(code);
        Anchored an;
        bool fixed_only = nb::len(card) > 0;
        int first_bit = -1;
        for (nb::handle pl : card) {
            nb::handle fixed = pl[0], groups = pl[1];
            if (nb::len(groups) || !nb::len(fixed)) fixed_only = false;
            else {
                int b = nb::cast<int>(nb::handle(fixed[0])[1]);
                if (first_bit < 0) first_bit = b;
                if (b != first_bit) fixed_only = false;
            }
        }
        if (fixed_only) {
            an.on = true;
            an.t0 = __builtin_ctz(unsigned(first_bit));
            for (int sp = 0; sp < t->n; ++sp) {
                an.start.push_back(int32_t(an.code.size()));
                for (nb::handle pl : card) {
                    nb::handle fixed = pl[0];
                    if (nb::cast<int>(nb::handle(fixed[0])[0]) != sp) continue;
                    an.anchors |= uint64_t(1) << sp;
                    an.code.push_back(int16_t(nb::len(fixed) - 1));
                    for (size_t i = 1; i < nb::len(fixed); ++i) {
                        an.code.push_back(int16_t(nb::cast<int>(nb::handle(fixed[i])[0])));
                        an.code.push_back(int16_t(nb::cast<int>(nb::handle(fixed[i])[1])));
                    }
                }
            }
            an.start.push_back(int32_t(an.code.size()));
        }
        t->anchored.push_back(an);
    }
    for (nb::handle x : g["space_names"]) t->space_name.push_back(nb::cast<std::string>(x));
    for (nb::handle x : g["kind_names"]) t->kind_name.push_back(nb::cast<std::string>(x));
    nb::handle actions = g["actions"];
    t->actions = nb::borrow(actions);
    t->num_actions = int(nb::len(actions));
    t->scratch.resize(size_t(t->num_actions) + 1);
    if (t->num_actions >= Tables::SLOTS / 2) throw nb::value_error("DualsTables: too many actions");
    for (int id = 0; id < t->num_actions; ++id) {
        nb::handle a = actions[id];
        t->action.push_back(a.ptr());
        t->index(a.ptr(), id);
        t->act_kind.push_back(nb::cast<int>(a.attr("kind")));
        t->act_a.push_back(nb::cast<int>(a.attr("a")));
        t->act_b.push_back(nb::cast<int>(a.attr("b")));
        t->text.push_back(nb::cast<std::string>(a.attr("label")));
    }
    // The ids the engine computes must be the action space's (actions.py's layout).
    const Tables &c = *t;
    for (int id = 0; id < c.num_actions; ++id) {
        int k = c.act_kind[id], a = c.act_a[id], b = c.act_b[id], want = -1;
        switch (k) {
            case K_DONE: case K_SKIP: case K_COIN: want = k; break;
            case K_PLACE: want = c.PLACE_(a); break;
            case K_FIRE: want = c.FIRE_(a); break;
            case K_TAKE: want = c.TAKE_(a); break;
            case K_USE: want = c.USE_(a); break;
            case K_MOVE: want = c.MOVE_(a, b); break;
            case K_SWAP: want = c.SWAP_(a, b); break;
            case K_SCORE: want = c.SCORE_(a); break;
            default: want = c.BOTTOM_(a); break;
        }
        if (want != id) throw nb::value_error("DualsTables: the action ids are not actions.py's layout");
    }
    t->make_outcome = g["make_outcome"];
    t->illegal = g["illegal"];
    t->make_view = g["make_view"];
    t->fallback = g["fallback"];
    return DualsTables{t};
}

}  // namespace

// The three calls of every step (to_act, legal_actions, apply) as CPython's own descriptors on the class: a getset
// and two methods called straight from the interpreter, without nanobind's dispatch (as _duel does).
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

PyObject *SEAT[2] = {nullptr, nullptr};

PyObject *py_to_act(PyObject *self, void *) {
    const State &s = nb::inst_ptr<DualsState>(self)->s;
    if (s.step == OVER) Py_RETURN_NONE;
    PyObject *seat = SEAT[s.turn & 1];  // 0 and 1, made once
    Py_INCREF(seat);
    return seat;
}

PyObject *py_legal_actions(PyObject *self, PyObject *) {
    return guarded([&] { return nb::inst_ptr<DualsState>(self)->legal_actions().release().ptr(); });
}

PyObject *py_apply(PyObject *self, PyObject *action) {
    return guarded([&] {
        nb::inst_ptr<DualsState>(self)->apply(action);
        Py_RETURN_NONE;
    });
}

PyGetSetDef TO_ACT = {"to_act", py_to_act, nullptr, "the seat to act, None once the match is over", nullptr};
PyMethodDef LEGAL_ACTIONS = {"legal_actions", py_legal_actions, METH_NOARGS, "the legal actions, in id order"};
PyMethodDef APPLY = {"apply", py_apply, METH_O, "play an action for the seat to act (IllegalAction if it is not legal)"};

void add_descriptor(nb::handle cls, const char *name, PyObject *descr) {
    if (!descr || PyObject_SetAttrString(cls.ptr(), name, descr) != 0) throw nb::python_error();
    Py_DECREF(descr);
}

NB_MODULE(_duals, m) {
    m.doc() = "Flamecraft Duals' rules engine in C++ (flametable issue 26): flametable.games.duals.native wraps it.";
    str_id = PyUnicode_InternFromString("id");
    SEAT[0] = PyLong_FromLong(0);
    SEAT[1] = PyLong_FromLong(1);
    nb::set_leak_warnings(false);  // as _duel: the games' tables live as long as the process
    nb::class_<DualsTables>(m, "DualsTables");
    m.def("make_tables", &make_tables);
    auto state = nb::class_<DualsState>(m, "DualsState");
    state.def_prop_ro("outcome", &DualsState::outcome)
        .def("clone", &DualsState::clone)
        .def("view_json", &DualsState::json, nb::arg("seat").none())
        .def("view",
             [](DualsState &d, nb::handle seat) {
                 if (!seat.is_none() && !(PyLong_CheckExact(seat.ptr()) &&
                                          (PyLong_AsLong(seat.ptr()) == 0 || PyLong_AsLong(seat.ptr()) == 1)))
                     throw nb::value_error(("seat must be 0, 1 or None, got " +
                                            nb::cast<std::string>(nb::repr(seat))).c_str());
                 return d.t->make_view(d.json(seat));
             },
             nb::arg("seat").none())
        .def("fields", &fields)
        .def_prop_ro("engine", [](const DualsState &) { return "native"; });
    // The reference state's other fields and helpers, read from a Python copy of the state (duals/native.py,
    // to_python): what the bots, texts and summaries read. Properties, not __getattr__, which would slow every
    // attribute.
    static const char *const FALLBACK[] = {
        "data", "actions", "neighbours", "abilities", "kind_types", "open_cache", "buddy", "stacks", "bag", "reserve",
        "deck", "hands", "piles", "coins", "known_bottom", "rng", "first", "first_draws", "turn", "turn_number",
        "step", "firing_space", "held", "drawn", "fire_after", "fire_optional", "fired", "iron_destination",
        "coin_used", "bottom_left", "ended", "last", "full_spaces", "top_lanes", "phase", "points", "matching",
        "token_count", "index_board"};
    for (const char *name : FALLBACK)
        state.def_prop_ro(name, [name](nb::handle self) {
            DualsState &d = nb::cast<DualsState &>(self);
            return d.t->fallback(self, name);
        });
    auto *type = reinterpret_cast<PyTypeObject *>(state.ptr());
    add_descriptor(state, "to_act", PyDescr_NewGetSet(type, &TO_ACT));
    add_descriptor(state, "legal_actions", PyDescr_NewMethod(type, &LEGAL_ACTIONS));
    add_descriptor(state, "apply", PyDescr_NewMethod(type, &APPLY));
    m.def("new_match", &new_match);
    m.def("from_fields", &from_fields);
    // The observations and the batch API (issue 26, points 3 and 4): duals/native.py's NativeEncoder and
    // NativeDualsBatch wrap them.
    nb::class_<DualsEncoder>(m, "DualsEncoder");
    m.def("make_encoder", &make_encoder);
    state.def("encode", [](DualsState &d, int seat, const DualsEncoder &enc, Obs out) {
        if (seat != 0 && seat != 1) throw nb::value_error("an observation is made of a seat's view, not a spectator's");
        check_layout(*d.t, enc.L);
        if (out.shape(0) != size_t(enc.L.size)) throw nb::value_error("the observation's length is not the layout's");
        encode_state(*d.t, d.s, seat, enc.L, out.data());
    });
    nb::class_<DualsBatch>(m, "DualsBatch")
        .def(nb::init<const DualsTables &, int, bool, uint64_t>())
        .def("encode", &batch_encode)
        .def("observe", &DualsBatch::observe)
        .def("step", &DualsBatch::step)
        .def("state", &DualsBatch::state)
        .def("seed", &DualsBatch::seed)
        .def_ro("size", &DualsBatch::n)
        .def_rw("threads", &DualsBatch::threads);
}
