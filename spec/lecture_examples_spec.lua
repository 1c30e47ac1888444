-- The CS4386 lecture on Dijkstra and A* (lecture 07), Examples 1, 2 and 3: the graph A..F and the
-- step tables, reproduced exactly with tie_break = "fifo".
--
-- The graph is read off the step tables (each X(Y, c) entry gives an edge
-- Y -> X of cost c - cost(Y)); the heuristic of each node is e - c in the
-- X(Y, c, e) entries of Examples 2 and 3.
local astar = require("astar")

local A, B, C, D, E, F = 1, 2, 3, 4, 5, 6
local name = { "A", "B", "C", "D", "E", "F" }

local function seed_graph()
  local g = astar.graph()
  for i = 1, 6 do g:add_node(i, 0) end
  -- order matters for FIFO ties: C's edges to D, E, F are relaxed in this order
  g:add_edge(A, B, 3); g:add_edge(A, C, 5); g:add_edge(A, D, 9)
  g:add_edge(B, C, 1)
  g:add_edge(C, D, 3); g:add_edge(C, E, 10); g:add_edge(C, F, 11)
  g:add_edge(D, E, 6)
  g:add_edge(E, F, 1)
  return g
end

local h_under = { [A] = 10, [B] = 8, [C] = 6, [D] = 4, [E] = 1, [F] = 0 } -- Example 2
local h_over = { [A] = 17, [B] = 16, [C] = 11, [D] = 8, [E] = 1, [F] = 0 } -- Example 3

local function table_h(h)
  return function(node, goal)
    assert(goal == F)
    return h[node]
  end
end

-- The trace as rows "N(parent, g, f)" in the lecture's notation.
local function rows(trace)
  local out = {}
  for i, t in ipairs(trace) do
    out[i] = string.format("%s(%s,%g,%g)", name[t.node], t.parent and name[t.parent] or "-", t.g, t.f)
  end
  return out
end

local function path_names(path)
  local out = {}
  for i, n in ipairs(path.nodes) do out[i] = name[n] end
  return table.concat(out, "-")
end

describe("the CS4386 lecture's examples (tie_break = fifo)", function()
  it("Example 1: Dijkstra expands A B C D E and finds A-B-C-D-E-F at 14", function()
    local g = seed_graph()
    local p = assert(g:find_path(A, F, { heuristic = "zero", tie_break = "fifo", trace = true }))
    assert.equal(14, p.cost)
    assert.equal("A-B-C-D-E-F", path_names(p))
    -- steps [1]..[5] of the seed, then F taken from the open list as F(E,14)
    assert.same({ "A(-,0,0)", "B(A,3,3)", "C(B,4,4)", "D(C,7,7)", "E(D,13,13)", "F(E,14,14)" },
      rows(p.trace))
    assert.same({ 1, 4, 5, 8, 9 }, p.edges) -- A->B, B->C, C->D, D->E, E->F
    assert.equal(6, p.expanded)
    assert.equal(0, p.reopened)
  end)

  it("Example 2: the underestimating heuristic follows the lecture's table", function()
    local g = seed_graph()
    local p = assert(g:find_path(A, F, { heuristic = table_h(h_under), tie_break = "fifo", trace = true }))
    assert.equal(14, p.cost)
    assert.equal("A-B-C-D-E-F", path_names(p))
    assert.same({ "A(-,0,10)", "B(A,3,11)", "C(B,4,10)", "D(C,7,11)", "E(D,13,14)", "F(E,14,14)" },
      rows(p.trace))
  end)

  describe("Example 3: the overestimating heuristic", function()
    it("costs 16 with stop = first_hit (F first reached from C)", function()
      local g = seed_graph()
      local p = assert(g:find_path(A, F, { heuristic = table_h(h_over), tie_break = "fifo",
        stop = "first_hit", trace = true }))
      assert.equal(16, p.cost)
      assert.equal("A-C-F", path_names(p))
      assert.same({ "A(-,0,17)", "C(A,5,16)" }, rows(p.trace))
      assert.equal(2, p.expanded)
    end)

    it("costs 15 with stop = expand (the lecture's steps 1-5)", function()
      local g = seed_graph()
      local p = assert(g:find_path(A, F, { heuristic = table_h(h_over), tie_break = "fifo",
        stop = "expand", trace = true }))
      assert.equal(15, p.cost)
      assert.equal("A-C-D-E-F", path_names(p))
      assert.same({ "A(-,0,17)", "C(A,5,16)", "D(C,8,16)", "E(D,14,15)", "F(E,15,15)" }, rows(p.trace))
    end)

    it("costs 14 with stop = optimal, reopening C, D, E and F (the lecture's steps 1-9)", function()
      local g = seed_graph()
      local p = assert(g:find_path(A, F, { heuristic = table_h(h_over), tie_break = "fifo",
        stop = "optimal", trace = true }))
      assert.equal(14, p.cost)
      assert.equal("A-B-C-D-E-F", path_names(p))
      assert.same({ "A(-,0,17)", "C(A,5,16)", "D(C,8,16)", "E(D,14,15)", "F(E,15,15)",
        "B(A,3,19)", "C(B,4,15)", "D(C,7,15)", "E(D,13,14)" }, rows(p.trace))
      assert.equal(9, p.expanded)
      assert.equal(4, p.reopened) -- C, D, E closed and reopened; F closed at step 5, reopened
    end)

    it("calls the Lua heuristic at most once per node even with reopening", function()
      local g = seed_graph()
      local calls = {}
      local p = assert(g:find_path(A, F, { stop = "optimal", tie_break = "fifo",
        heuristic = function(n) calls[n] = (calls[n] or 0) + 1; return h_over[n] end }))
      assert.equal(14, p.cost)
      for n = 1, 6 do assert.equal(1, calls[n], "node " .. name[n]) end
    end)
  end)

  it("with the default high_g tie-break, Example 3's expand stop takes F at 16", function()
    -- at step 3 D, E and F tie at f = 16; high_g picks F (g = 16) first
    local g = seed_graph()
    local p = assert(g:find_path(A, F, { heuristic = table_h(h_over), trace = true }))
    assert.equal(16, p.cost)
    assert.same({ "A(-,0,17)", "C(A,5,16)", "F(C,16,16)" }, rows(p.trace))
  end)
end)
