// bench/boost_graph.cpp -- graph searches: this library's core against
// Boost.Graph's dijkstra_shortest_paths and astar_search, same graph, same
// queries, alternating per query, CPU time.
//
// Build (make bench does it when libboost-graph-dev is installed):
//   cc -std=c99 -O2 -c <CORE_SRC of src/sources.mk>  and
//   c++ -std=c++17 -O2 -DNDEBUG -Isrc bench/boost_graph.cpp <core objects> <LIBS>
// Run:
//   build/bench/boost_graph [side] [queries] [seed]
// The graph is a side x side lattice (default 707: 499,849 nodes) whose
// node positions are jittered by up to +-0.35 in x and y; each lattice edge
// is kept with probability 0.9 and then present in both directions, with
// cost = its Euclidean length (so the Euclidean heuristic is admissible and
// consistent).  About 1.8M directed edges.  Queries are random node pairs
// (seeded); a pair whose ends are not connected counts for both sides too.
//
// Per query and side the program measures CPU time
// (CLOCK_PROCESS_CPUTIME_ID); the two sides alternate inside each query
// (ours first on even queries, Boost first on odd ones), so machine noise
// hits both alike.  Prints, for each mode (zero heuristic = Dijkstra, and
// Euclidean A*), the median per-query time of each side, their ratio, the
// mean expansions, and fails when a cost differs (relative 1e-9).
//
// How Boost is used, as a competent user would (see bench/boost_astar.cpp
// for the grid version and its reasons): compressed_sparse_row_graph with
// 32-bit indices and a bundled double weight, property maps allocated once,
// the *_no_init entry points with a reset of the touched vertices only
// (timed), the goal stop by a visitor that throws when the goal is examined.

#include <boost/graph/astar_search.hpp>
#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <boost/graph/dijkstra_shortest_paths_no_color_map.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>

#include <time.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

extern "C" {
#include "astar.h"
}

namespace {

struct EdgeWeight {
    double weight;
};

using Graph = boost::compressed_sparse_row_graph<boost::directedS, boost::no_property, EdgeWeight, boost::no_property,
                                                 std::uint32_t, std::uint32_t>;
using Vertex = boost::graph_traits<Graph>::vertex_descriptor;

struct Point {
    double x, y;
};

// A small deterministic generator (the same graph on every machine).
struct Rng {
    std::uint64_t s;
    explicit Rng(std::uint64_t seed) : s(seed * 2654435761u + 1) {}
    std::uint64_t next()
    {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        return s;
    }
    double uniform() { return double(next() >> 11) * (1.0 / 9007199254740992.0); }
};

double cpu_now()
{
    timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

struct FoundGoal {};

class DijkstraGoal : public boost::default_dijkstra_visitor {
public:
    DijkstraGoal(Vertex goal, std::size_t* expansions, std::vector<Vertex>* touched)
        : goal_(goal), expansions_(expansions), touched_(touched)
    {
    }
    void discover_vertex(Vertex u, const Graph&) { touched_->push_back(u); }
    void examine_vertex(Vertex u, const Graph&)
    {
        ++*expansions_;
        if (u == goal_) throw FoundGoal();
    }

private:
    Vertex goal_;
    std::size_t* expansions_;
    std::vector<Vertex>* touched_;
};

class AstarGoal : public boost::default_astar_visitor {
public:
    AstarGoal(Vertex goal, std::size_t* expansions, std::vector<Vertex>* touched)
        : goal_(goal), expansions_(expansions), touched_(touched)
    {
    }
    void discover_vertex(Vertex u, const Graph&) { touched_->push_back(u); }
    void examine_vertex(Vertex u, const Graph&)
    {
        ++*expansions_;
        if (u == goal_) throw FoundGoal();
    }

private:
    Vertex goal_;
    std::size_t* expansions_;
    std::vector<Vertex>* touched_;
};

class Euclid : public boost::astar_heuristic<Graph, double> {
public:
    Euclid(const std::vector<Point>& pts, Vertex goal) : pts_(&pts), gx_(pts[goal].x), gy_(pts[goal].y) {}
    double operator()(Vertex v) const
    {
        const double dx = (*pts_)[v].x - gx_, dy = (*pts_)[v].y - gy_;
        return std::sqrt(dx * dx + dy * dy);
    }

private:
    const std::vector<Point>* pts_;
    double gx_, gy_;
};

class BoostSide {
public:
    BoostSide(const Graph& g, const std::vector<Point>& pts)
        : g_(g), pts_(pts), n_(boost::num_vertices(g)), dist_(n_, kInf), cost_(n_, kInf), pred_(n_),
          color_(n_, boost::white_color)
    {
        for (Vertex v = 0; v < n_; ++v) pred_[v] = v;
        touched_.reserve(n_);
    }

    double search(Vertex s, Vertex goal, bool euclid, std::size_t& expansions)
    {
        const auto index = boost::get(boost::vertex_index, g_);
        auto dist = boost::make_iterator_property_map(dist_.begin(), index);
        auto pred = boost::make_iterator_property_map(pred_.begin(), index);
        auto color = boost::make_iterator_property_map(color_.begin(), index);
        expansions = 0;
        touched_.clear();
        dist_[s] = 0.0;
        bool found = false;
        try {
            if (euclid) {
                auto cost = boost::make_iterator_property_map(cost_.begin(), index);
                const Euclid h(pts_, goal);
                cost_[s] = h(s);
                touched_.push_back(s);
                boost::astar_search_no_init(g_, s, h, AstarGoal(goal, &expansions, &touched_), pred, cost, dist,
                                            boost::get(&EdgeWeight::weight, g_), color, index,
                                            std::less<double>(), boost::closed_plus<double>(kInf), kInf, 0.0);
            } else {
                touched_.push_back(s);
                boost::dijkstra_shortest_paths_no_init(g_, s, pred, dist, boost::get(&EdgeWeight::weight, g_),
                                                       index, std::less<double>(),
                                                       boost::closed_plus<double>(kInf), 0.0,
                                                       DijkstraGoal(goal, &expansions, &touched_), color);
            }
        } catch (const FoundGoal&) {
            found = true;
        }
        const double result = found ? dist_[goal] : -1.0;
        for (const Vertex v : touched_) {
            dist_[v] = kInf;
            cost_[v] = kInf;
            color_[v] = boost::white_color;
        }
        return result;
    }

private:
    static constexpr double kInf = std::numeric_limits<double>::max();
    const Graph& g_;
    const std::vector<Point>& pts_;
    std::size_t n_;
    std::vector<double> dist_, cost_;
    std::vector<Vertex> pred_;
    std::vector<boost::default_color_type> color_;
    std::vector<Vertex> touched_;
};

class AstarSide {
public:
    explicit AstarSide(astar_graph* g) : g_(g), s_(astar_search_new(nullptr, nullptr))
    {
        if (!s_) std::abort();
    }
    ~AstarSide() { astar_search_free(s_); }

    double search(int32_t s, int32_t goal, bool euclid, std::size_t& expansions)
    {
        astar_query q;
        astar_query_init(&q, s, goal);
        q.heuristic = euclid ? ASTAR_H_EUCLIDEAN : ASTAR_H_ZERO;
        if (astar_search_begin(s_, astar_graph_topology(g_), &q) != ASTAR_OK) std::abort();
        int st = astar_search_step(s_, 0);
        expansions = std::size_t(astar_search_stats(s_)->expanded);
        if (st != ASTAR_FOUND) return -1.0;
        return astar_search_g(s_, goal);
    }

private:
    astar_graph* g_;
    astar_search* s_;
};

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const std::size_t m = v.size() / 2;
    return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2.0;
}

}  // namespace

int main(int argc, char** argv)
{
    const long side = argc > 1 ? std::atol(argv[1]) : 707;
    const long nq = argc > 2 ? std::atol(argv[2]) : 200;
    const long seed = argc > 3 ? std::atol(argv[3]) : 1;
    // "astar" or "boost": run one side only (for perf stat); default both
    const std::string only = argc > 4 ? argv[4] : "both";
    if (side < 2 || side > 4000 || nq < 1) {
        std::fprintf(stderr, "usage: boost_graph [side 2..4000] [queries >= 1] [seed]\n");
        return 2;
    }
    Rng rng{static_cast<std::uint64_t>(seed)};
    const long n = side * side;
    std::vector<Point> pts(static_cast<std::size_t>(n));
    for (long y = 0; y < side; ++y)
        for (long x = 0; x < side; ++x)
            pts[std::size_t(y * side + x)] = {double(x) + 0.7 * (rng.uniform() - 0.5),
                                              double(y) + 0.7 * (rng.uniform() - 0.5)};
    // Undirected lattice edges kept with p = 0.9, each added both ways.
    std::vector<std::pair<Vertex, Vertex>> edges;
    std::vector<EdgeWeight> weights;
    astar_graph* ag = astar_graph_new(nullptr, nullptr);
    for (long i = 0; i < n; ++i) {
        int32_t id;
        if (astar_graph_add_node(ag, pts[std::size_t(i)].x, pts[std::size_t(i)].y, 0, &id) != ASTAR_OK) return 3;
    }
    for (long y = 0; y < side; ++y)
        for (long x = 0; x < side; ++x) {
            const long a = y * side + x;
            const long nb[2] = {x + 1 < side ? a + 1 : -1, y + 1 < side ? a + side : -1};
            for (long b : nb) {
                if (b < 0 || rng.uniform() >= 0.9) continue;
                const double dx = pts[std::size_t(a)].x - pts[std::size_t(b)].x,
                             dy = pts[std::size_t(a)].y - pts[std::size_t(b)].y;
                const double c = std::sqrt(dx * dx + dy * dy);
                edges.emplace_back(Vertex(a), Vertex(b));
                weights.push_back({c});
                edges.emplace_back(Vertex(b), Vertex(a));
                weights.push_back({c});
                int32_t e;
                if (astar_graph_add_edge(ag, int32_t(a), int32_t(b), c, 0, &e) != ASTAR_OK ||
                    astar_graph_add_edge(ag, int32_t(b), int32_t(a), c, 0, &e) != ASTAR_OK)
                    return 3;
            }
        }
    const Graph g(boost::edges_are_unsorted_multi_pass, edges.begin(), edges.end(), weights.begin(),
                  std::size_t(n));
    BoostSide bs(g, pts);
    AstarSide as(ag);
    std::printf("graph: %ld nodes, %zu directed edges, %ld queries (seed %ld)\n", n, edges.size(), nq, seed);

    std::vector<std::pair<long, long>> qs;
    for (long k = 0; k < nq; ++k) qs.emplace_back(long(rng.next() % std::uint64_t(n)), long(rng.next() % std::uint64_t(n)));
    // one warm-up query per side: first touch of the state arrays
    {
        std::size_t e;
        as.search(0, int32_t(n - 1), false, e);
        bs.search(0, Vertex(n - 1), false, e);
    }
    int status = 0;
    for (int mode = 0; mode < 2; ++mode) {
        const bool euclid = mode == 1;
        std::vector<double> ta, tb;
        double ea = 0, eb = 0, sa = 0, sb = 0;
        long mism = 0;
        for (long k = 0; k < nq; ++k) {
            const long s = qs[std::size_t(k)].first, t = qs[std::size_t(k)].second;
            double ca = 0, cb = 0, da = 0, db = 0;
            std::size_t xa = 0, xb = 0;
            for (int side_i = 0; side_i < 2; ++side_i) {
                const bool ours = (side_i == 0) == (k % 2 == 0);
                if ((ours && only == "boost") || (!ours && only == "astar")) continue;
                const double t0 = cpu_now();
                if (ours)
                    ca = as.search(int32_t(s), int32_t(t), euclid, xa);
                else
                    cb = bs.search(Vertex(s), Vertex(t), euclid, xb);
                const double dt = cpu_now() - t0;
                if (ours) da = dt; else db = dt;
            }
            ta.push_back(da);
            tb.push_back(db);
            sa += da;
            sb += db;
            ea += double(xa);
            eb += double(xb);
            if (only == "both" && ((ca < 0) != (cb < 0) || std::fabs(ca - cb) > 1e-9 * std::max(1.0, cb))) {
                ++mism;
                std::fprintf(stderr, "mismatch: %ld -> %ld astar %.12g boost %.12g\n", s, t, ca, cb);
            }
        }
        const double ma = median(ta), mb = median(tb);
        std::printf("%-9s astar median %8.3f ms (total %7.1f ms, %9.0f expanded)   boost median %8.3f ms "
                    "(total %7.1f ms, %9.0f expanded)   boost/astar %.2f (totals %.2f)  mismatches %ld\n",
                    euclid ? "euclidean" : "zero", ma * 1e3, sa * 1e3, ea / double(nq), mb * 1e3, sb * 1e3,
                    eb / double(nq), mb / ma, sb / sa, mism);
        if (mism) status = 1;
    }
    astar_graph_free(ag);
    return status;
}
