-- Jump point search (algorithm = "auto" | "astar" | "jps"): which queries
-- take it, the errors when "jps" cannot serve a query, paths checked cell by
-- cell against the move rules and against A*'s cost on random grids (both
-- rules, every kind of start and goal), the engine's features under JPS
-- (stop modes, budgets, partial paths, time slices, traces, Lua heuristics,
-- set_blocked between queries), and Moving AI rows (a sample in make test;
-- every row in make test-system: tagged #system, and #benchmark).
local astar = require("astar")
local helpers = require("helpers")
local error_of, rng = helpers.error_of, helpers.rng

local DIAG = astar.DIAGONAL

local check_walk = helpers.check_grid_walk

local random_grid = helpers.random_grid

-- An open cell of g, or any cell when none is open.
local function open_cell(r, g)
  local w, h = g:size()
  for _ = 1, 50 do
    local x, y = r(1, w), r(1, h)
    if not g:is_blocked(x, y) then return x, y end
  end
  return r(1, w), r(1, h)
end

-- Start and goal of case kind k: any cells, the same cell, neighbours, a
-- blocked end, open ends.
local function ends(r, g, k)
  local w, h = g:size()
  local sx, sy = open_cell(r, g)
  if k == 1 then return sx, sy, sx, sy end
  if k == 2 then
    local gx, gy = math.max(1, math.min(w, sx + r(-1, 1))), math.max(1, math.min(h, sy + r(-1, 1)))
    return sx, sy, gx, gy
  end
  if k == 3 then return sx, sy, r(1, w), r(1, h) end
  local gx, gy = open_cell(r, g)
  return sx, sy, gx, gy
end

describe("jps: which queries take it", function()
  it("is the default on uniform grids and finds what A* finds in fewer expansions #pure", function()
    local g = astar.grid(30, 30)
    for y = 2, 29 do g:set_blocked(15, y, true) end
    local p = assert(g:find_path(1, 15, 30, 15))
    local j = assert(g:find_path(1, 15, 30, 15, { algorithm = "jps" }))
    local a = assert(g:find_path(1, 15, 30, 15, { algorithm = "astar" }))
    assert.same(j.nodes, p.nodes)
    assert.equal(a.cost, p.cost)
    assert.equal(#a.nodes, #p.nodes)
    assert(p.expanded < a.expanded / 4, "auto did not take jps")
    check_walk(g, p, 1, 15, 30, 15)
  end)

  it("falls back to A* under auto where JPS cannot serve, with the same answer #pure", function()
    local g = astar.grid(12, 12)
    g:set_tag(3, 3, "mud")
    local a = g:find_path(1, 1, 12, 12, { algorithm = "astar" })
    for _, opts in ipairs({ { weight = 2 }, { costs = { mud = 3 } },
      { cost = function(_, _, _, _, c) return c end },
      { penalty = astar.field(g) }, { forbid = astar.field(g) } }) do
      local auto = assert(g:find_path(1, 1, 12, 12, opts))
      opts.algorithm = "astar"
      local forced = assert(g:find_path(1, 1, 12, 12, opts))
      assert.same(forced.nodes, auto.nodes)
      assert.equal(forced.expanded, auto.expanded)
    end
    -- a tag factor of 1 changes no cost: jps serves it
    local j = assert(g:find_path(1, 1, 12, 12, { costs = { mud = 1 }, algorithm = "jps" }))
    assert.equal(a.cost, j.cost)
    -- the other diagonal rules take A*
    local loose = astar.grid(12, 12, { diagonal = "always" })
    assert.equal(loose:find_path(1, 1, 12, 12, { algorithm = "astar" }).expanded,
      loose:find_path(1, 1, 12, 12).expanded)
  end)

  it("raises naming the reason when \"jps\" cannot serve the query", function()
    local g = astar.grid(8, 8)
    local msg = function(arg, why)
      return ("bad argument #%d to 'find_path' (algorithm \"jps\" does not apply to this query (%s))")
        :format(arg, why)
    end
    assert.equal(msg(5, "weight other than 1"),
      error_of(g.find_path, g, 1, 1, 8, 8, { algorithm = "jps", weight = 2 }))
    assert.equal(msg(5, "penalty"),
      error_of(g.find_path, g, 1, 1, 8, 8, { algorithm = "jps", penalty = astar.field(g) }))
    assert.equal(msg(5, "forbid"),
      error_of(g.find_path, g, 1, 1, 8, 8, { algorithm = "jps", forbid = astar.field(g) }))
    assert.equal(msg(5, "cost callback"),
      error_of(g.find_path, g, 1, 1, 8, 8, { algorithm = "jps", cost = function() return 1 end }))
    g:set_tag(2, 2, "door")
    assert.equal(msg(5, "tag costs"),
      error_of(g.find_path, g, 1, 1, 8, 8, { algorithm = "jps", costs = { door = 2 } }))
    g:set_cost(2, 2, 3)
    assert.equal(msg(5, "cell costs"), error_of(g.find_path, g, 1, 1, 8, 8, { algorithm = "jps" }))
    assert.equal(msg(5, "cell costs"):gsub("find_path", "query"), (error_of(g.query, g, 1, 1, 8, 8,
      { algorithm = "jps" })))
    local one = astar.grid(4, 4, { diagonal = "one_obstacle" })
    assert.equal(msg(5, "diagonal rule one_obstacle"),
      error_of(one.find_path, one, 1, 1, 4, 4, { algorithm = "jps" }))
    local always = astar.grid(4, 4, { diagonal = "always" })
    assert.equal(msg(5, "diagonal rule always"),
      error_of(always.find_path, always, 1, 1, 4, 4, { algorithm = "jps" }))
    local gr = astar.graph()
    gr:add_node(0, 0)
    gr:add_node(1, 0)
    gr:add_edge(1, 2, 1)
    assert.equal("bad argument #3 to 'find_path' (algorithm \"jps\" does not apply to this query (a graph))",
      error_of(gr.find_path, gr, 1, 2, { algorithm = "jps" }))
    assert.equal(1, gr:find_path(1, 2, { algorithm = "astar" }).cost)
    local hx = astar.hex(4, 4)
    assert.equal("bad argument #5 to 'find_path' (algorithm \"jps\" does not apply to this query (a hex grid))",
      error_of(hx.find_path, hx, 1, 1, 4, 4, { algorithm = "jps" }))
    assert.equal(hx:find_path(1, 1, 4, 4, { algorithm = "astar" }).cost, hx:find_path(1, 1, 4, 4).cost)
    assert.equal(1, gr:find_path(1, 2, { algorithm = "auto" }).cost)
    -- every object stays usable
    assert.equal(7 * DIAG, astar.grid(8, 8):find_path(1, 1, 8, 8, { algorithm = "jps" }).cost)
    assert.equal(4, g:find_path(1, 1, 1, 5, { algorithm = "astar" }).cost)
  end)

  it("rejects bad algorithm values with the exact message #pure", function()
    local g = astar.grid(4, 4)
    for _, v in ipairs({ 1, "JPS", "dijkstra", "", true, {} }) do
      local shown = type(v) == "string" and ('"' .. v .. '"') or (type(v) == "table" and "table" or tostring(v))
      assert.equal("bad argument #5 to 'find_path' (algorithm must be \"auto\", \"astar\", \"jps\" or \"jps+\", got "
        .. shown .. ")", error_of(g.find_path, g, 1, 1, 4, 4, { algorithm = v }))
    end
    assert.equal("bad argument #2 to 'distances' (option \"algorithm\" does not apply to distances)",
      error_of(g.distances, g, { { 1, 1 } }, { algorithm = "jps" }))
    assert.equal(3 * DIAG, g:find_path(1, 1, 4, 4).cost)
  end)
end)

describe("jps: random grids against A*", function()
  for _, rule in ipairs({ "no_corner_cutting", "never" }) do
    it(("%s: same cost and status as A*, every path a legal walk #pure"):format(rule), function()
      local r = rng(rule == "never" and 4242 or 1717)
      local n = 0
      for case = 1, 400 do
        local w, h = r(1, 24), r(1, 24)
        local g = random_grid(r, w, h, ({ 0, 0.1, 0.25, 0.4 })[case % 4 + 1], rule)
        for k = 1, 4 do
          local sx, sy, gx, gy = ends(r, g, k)
          local a, why_a = g:find_path(sx, sy, gx, gy, { algorithm = "astar" })
          local j, why_j = g:find_path(sx, sy, gx, gy, { algorithm = "jps" })
          if a then
            assert(j, ("%s case %d: jps found no path (%s)"):format(rule, case, tostring(why_j)))
            assert.equal(a.cost, j.cost)     -- exact: grid step sums are exact
            check_walk(g, j, sx, sy, gx, gy)
            n = n + 1
          else
            assert.is_nil(j)
            assert.equal(why_a, why_j)
          end
        end
      end
      assert(n > 800, "too few reachable cases: " .. n)
    end)
  end

  it("follows set_blocked: the bit rows stay current between queries #pure", function()
    local r = rng(99)
    for _, rule in ipairs({ "no_corner_cutting", "never" }) do
      local g = random_grid(r, 40, 23, 0.2, rule)
      for _ = 1, 150 do
        for _ = 1, 10 do
          local x, y = r(1, 40), r(1, 23)
          g:set_blocked(x, y, not g:is_blocked(x, y))
        end
        local sx, sy, gx, gy = ends(r, g, 4)
        local a = g:find_path(sx, sy, gx, gy, { algorithm = "astar" })
        local j = g:find_path(sx, sy, gx, gy)
        assert.equal(a and a.cost, j and j.cost)
        if j then check_walk(g, j, sx, sy, gx, gy) end
      end
    end
  end)

  it("handles grids one cell wide or high, and rows longer than 64 cells #pure", function()
    for _, rule in ipairs({ "no_corner_cutting", "never" }) do
      local row = astar.grid(200, 1, { diagonal = rule })
      local p = assert(row:find_path(1, 1, 200, 1))
      assert.equal(199, p.cost)
      assert.equal(200, #p.nodes)
      assert.equal(2, p.expanded)
      local col = astar.grid(1, 130, { diagonal = rule })
      assert.equal(129, col:find_path(1, 130, 1, 1).cost)
      row:set_blocked(130, 1, true)
      local none, why = row:find_path(1, 1, 200, 1)
      assert.is_nil(none)
      assert.equal("unreachable", why)
      assert.equal(128, row:find_path(1, 1, 129, 1).cost)
      local wide = astar.grid(300, 3, { diagonal = rule })
      for x = 2, 299, 7 do wide:set_blocked(x, 2, true) end
      local a = wide:find_path(1, 2, 300, 2, { algorithm = "astar" })
      local j = wide:find_path(1, 2, 300, 2)
      assert.equal(a.cost, j.cost)
      check_walk(wide, j, 1, 2, 300, 2)
    end
  end)
end)

-- Scans read the open-cell bit sets 64 cells a word: runs that start on the
-- last bit of a word (cells 63, 127) or the first (64, 128), and forced
-- neighbours there, are where a scan's first word and the carry between
-- words meet.  Starts and goals sit on those lines, the walls at random;
-- the same grid moved 5 cells right and down (a blocked margin) puts every
-- cell on other bits, and jump point search's nodes do not depend on where
-- a cell's bit is: the same expansions there, and A*'s cost.
describe("jps: scans across 64-cell words", function()
  it("runs from and through word edges: A*'s cost, the moved grid's expansions #pure", function()
    local r = rng(6464)
    local edge, S, W = { 62, 63, 64, 65, 126, 127, 128, 129 }, 5, 131
    local n = 0
    for case = 1, 24 do
      local g = random_grid(r, W, W, ({ 0.1, 0.2, 0.3 })[case % 3 + 1])
      local q = {}
      for i = 1, 12 do
        local sx, sy, gx, gy = edge[r(1, #edge)], edge[r(1, #edge)], r(1, W), r(1, W)
        if r(1, 2) == 1 then gx = edge[r(1, #edge)] end
        g:set_blocked(sx, sy, false)
        g:set_blocked(gx, gy, false)
        q[i] = { sx, sy, gx, gy }
      end
      local moved = astar.grid(W + S, W + S)
      for y = 1, W + S do
        for x = 1, W + S do
          moved:set_blocked(x, y, x <= S or y <= S or g:is_blocked(x - S, y - S))
        end
      end
      for _, e in ipairs(q) do
        local sx, sy, gx, gy = e[1], e[2], e[3], e[4]
        local a = g:find_path(sx, sy, gx, gy, { algorithm = "astar" })
        local j = g:find_path(sx, sy, gx, gy, { algorithm = "jps" })
        local m = moved:find_path(sx + S, sy + S, gx + S, gy + S, { algorithm = "jps" })
        assert.equal(a and a.cost, j and j.cost)
        assert.equal(j and j.cost, m and m.cost)
        if j then
          check_walk(g, j, sx, sy, gx, gy)
          assert.equal(j.expanded, m.expanded)
          n = n + 1
        end
      end
    end
    assert(n > 150, "too few reachable cases: " .. n)
  end)
end)

describe("jps: the engine's features", function()
  local function maze()
    local g = astar.grid(40, 40)
    for x = 1, 36 do g:set_blocked(x, 10, true) end
    for x = 5, 40 do g:set_blocked(x, 20, true) end
    for x = 1, 36 do g:set_blocked(x, 30, true) end
    return g
  end

  it("stop modes: optimal gives A*'s cost, first_hit a legal path #pure", function()
    local g = maze()
    local a = g:find_path(1, 1, 40, 40, { algorithm = "astar" })
    local o = assert(g:find_path(1, 1, 40, 40, { stop = "optimal" }))
    assert.equal(a.cost, o.cost)
    local f = assert(g:find_path(1, 1, 40, 40, { stop = "first_hit" }))
    check_walk(g, f, 1, 1, 40, 40)
    assert(f.cost >= a.cost)
  end)

  it("max_expansions counts jump points; partial paths end at a jump point #pure", function()
    local g = maze()
    local full = g:find_path(1, 1, 40, 40)
    local nope, why, stats = g:find_path(1, 1, 40, 40, { max_expansions = 3 })
    assert.is_nil(nope)
    assert.equal("max_expansions", why)
    assert.equal(3, stats.expanded)
    assert(full.expanded > 3)
    local p = assert(g:find_path(1, 1, 40, 40, { max_expansions = 3, partial = true, algorithm = "jps" }))
    assert.equal(3, p.expanded)
    assert.is_true(p.partial)
    assert.equal("max_expansions", p.reason)
    check_walk(g, p, 1, 1, p.xy[#p.xy][1], p.xy[#p.xy][2])
    -- a blocked goal: the closest jump point it reached
    g:set_blocked(40, 40, true)
    local q = assert(g:find_path(1, 1, 40, 40, { partial = true, algorithm = "jps" }))
    assert.equal("unreachable", q.reason)
    check_walk(g, q, 1, 1, q.xy[#q.xy][1], q.xy[#q.xy][2])
    -- auto leaves partial searches to A*: the closest cell, not jump point
    local auto = assert(g:find_path(1, 1, 40, 40, { partial = true }))
    local a = assert(g:find_path(1, 1, 40, 40, { partial = true, algorithm = "astar" }))
    assert.same(a.nodes, auto.nodes)
    assert.equal(a.expanded, auto.expanded)
    -- max_cost
    assert.equal("max_cost", select(2, g:find_path(1, 1, 39, 40, { max_cost = 10 })))
    local near = g:find_path(1, 1, 39, 40, { algorithm = "astar" })
    assert.equal(near.cost, g:find_path(1, 1, 39, 40, { max_cost = near.cost }).cost)
    assert.equal("max_cost", select(2, g:find_path(1, 1, 39, 40, { max_cost = near.cost - 0.5 })))
  end)

  it("time-sliced queries step jump points and give find_path's answer #pure", function()
    local g = maze()
    local full = g:find_path(1, 1, 40, 40, { visited = true })
    local q = g:query(1, 1, 40, 40, { visited = true })
    local steps = 0
    while q:step(1) == "searching" do steps = steps + 1 end
    assert.equal("found", q:status())
    local p = q:result()
    assert.same(full.nodes, p.nodes)
    assert.same(full.visited, p.visited)
    assert.equal(full.expanded, p.expanded)
    assert.equal(full.expanded - 1, steps)
    -- a change between steps: restarted, or "changed", as for A*
    local q2 = g:query(1, 1, 40, 40, { on_change = "fail" })
    local q3 = g:query(1, 1, 40, 40)
    assert.equal("searching", q2:step(1))
    assert.equal("searching", q3:step(1))
    g:set_blocked(20, 5, true)
    assert.equal("changed", q2:step(1))
    assert.equal("found", q3:step())
    assert.equal(g:find_path(1, 1, 40, 40, { algorithm = "astar" }).cost, q3:result().cost)
    -- cell costs since it began: "jps" cannot restart on that map
    local q4 = g:query(1, 1, 40, 40, { algorithm = "jps" })
    assert.equal("searching", q4:step(1))
    g:set_cost(3, 3, 2)
    assert.equal("algorithm \"jps\" does not apply to this query any more (cell costs)", error_of(q4.step, q4, 1))
  end)

  it("trace and visited list jump points, each with its parent jump point #pure", function()
    local g = maze()
    local p = g:find_path(1, 1, 40, 40, { trace = true, visited = true })
    assert.equal(p.expanded, #p.trace)
    assert.equal(p.expanded, #p.visited)
    local seen = {}
    for i, t in ipairs(p.trace) do
      assert.equal(p.visited[i], t.node)
      if i == 1 then assert.is_nil(t.parent) else assert(seen[t.parent], "parent not expanded before") end
      seen[t.node] = true
      local x, y = g:xy(t.node)
      assert.equal(x, t.x)
      assert.equal(y, t.y)
    end
    assert(#p.nodes > #p.trace, "the path lists every cell, the trace only jump points")
  end)

  it("a Lua heuristic is called at jump points only and gives the same cost #pure", function()
    local g = maze()
    local calls = 0
    local h = function(x, y, gx, gy)
      calls = calls + 1
      local dx, dy = math.abs(x - gx), math.abs(y - gy)
      return math.max(dx, dy) + (DIAG - 1) * math.min(dx, dy)
    end
    local a = g:find_path(1, 1, 40, 40, { algorithm = "astar" })
    local j = assert(g:find_path(1, 1, 40, 40, { heuristic = h }))
    assert.equal(a.cost, j.cost)
    assert(calls <= j.generated + 1 and calls < a.expanded, "heuristic called per cell")
    -- a heuristic that raises reaches the caller, the grid stays usable
    assert.equal("boom", error_of(g.find_path, g, 1, 1, 40, 40, { heuristic = function() error("boom", 0) end }))
    assert.equal(a.cost, g:find_path(1, 1, 40, 40).cost)
    -- every built-in heuristic, the zero one too
    for _, name in ipairs({ "zero", "euclidean", "manhattan", "chebyshev", "bisector" }) do
      local x = assert(g:find_path(1, 1, 40, 40, { heuristic = name, stop = "optimal" }))
      assert.equal(a.cost, x.cost)
    end
  end)

  it("the goal-visible shortcut: one expansion when the goal is in sight, every cell listed", function()
    -- walls off the way make jump points that a full expansion would find
    local g = astar.grid(100, 100)
    for x = 1, 100, 6 do g:set_blocked(x, 70, true) end
    for y = 1, 100, 6 do g:set_blocked(90, y, true) end
    local a = g:find_path(3, 4, 63, 34, { algorithm = "astar" })
    local j = assert(g:find_path(3, 4, 63, 34, { trace = true }))
    assert.equal(a.cost, j.cost)
    assert.equal(30 * DIAG + 30, j.cost)
    check_walk(g, j, 3, 4, 63, 34)
    -- the start, then the goal: no other jump point was scanned for
    assert.equal(2, j.expanded)
    assert.equal(2, j.generated)
    -- a straight run, and a run whose straight leg a wall closes
    assert.equal(2, g:find_path(50, 5, 50, 90).expanded)
    g:set_blocked(50, 34, true)
    local around = assert(g:find_path(3, 4, 63, 34))
    assert.equal(g:find_path(3, 4, 63, 34, { algorithm = "astar" }).cost, around.cost)
    check_walk(g, around, 3, 4, 63, 34)
    assert(around.expanded > 2)
    -- a Lua heuristic that is the octile distance takes the shortcut too;
    -- one that is lower (euclidean, zero) cannot, and still finds the cost
    local octile = function(x, y, gx, gy)
      local dx, dy = math.abs(x - gx), math.abs(y - gy)
      return math.max(dx, dy) + (DIAG - 1) * math.min(dx, dy)
    end
    local open = astar.grid(100, 100)
    local l = assert(open:find_path(3, 4, 63, 34, { heuristic = octile }))
    assert.equal(2, l.expanded)
    assert.equal(j.cost, l.cost)
    for _, h in ipairs({ "euclidean", "zero", function() return 0 end }) do
      local e = assert(open:find_path(3, 4, 63, 34, { heuristic = h }))
      assert.equal(j.cost, e.cost)
      check_walk(open, e, 3, 4, 63, 34)
    end
    -- a goal whose estimate of itself is not 0: the shortcut still answers
    -- optimally (the other scans run)
    local odd = function(x, y, gx, gy) return (x == gx and y == gy) and 1 or octile(x, y, gx, gy) end
    assert.equal(j.cost, open:find_path(3, 4, 63, 34, { heuristic = odd }).cost)
    -- stop modes and max_cost meet the shortcut
    assert.equal(j.cost, open:find_path(3, 4, 63, 34, { stop = "optimal" }).cost)
    assert.equal(j.cost, open:find_path(3, 4, 63, 34, { stop = "first_hit" }).cost)
    assert.equal("max_cost", select(2, open:find_path(3, 4, 63, 34, { max_cost = j.cost - 1 })))
  end)

  it("bounded scans on a large open grid: cut runs go on as nodes, answers stay A*'s", function()
    -- wider than JPS_BOUNDED (768 cells): runs longer than 256 cells are cut
    -- where their f passes the bound, and the cell where they stop is a node
    local r = rng(7)
    local g = astar.grid(1100, 900)
    for _ = 1, 1500 do
      local x, y, len = r(1, 1100), r(1, 900), r(1, 40)
      for i = 0, len - 1 do
        if r() < 0.5 then g:set_blocked(math.min(1100, x + i), y, true)
        else g:set_blocked(x, math.min(900, y + i), true) end
      end
    end
    for case = 1, 24 do
      local sx, sy = open_cell(r, g)
      local span = case % 3 == 0 and 800 or case % 3 == 1 and 300 or 60
      local gx = math.max(1, math.min(1100, sx + r(-span, span)))
      local gy = math.max(1, math.min(900, sy + r(-span, span)))
      if not g:is_blocked(gx, gy) then
        local a = g:find_path(sx, sy, gx, gy, { algorithm = "astar" })
        local j = g:find_path(sx, sy, gx, gy, { algorithm = "jps" })
        assert.equal(a and a.cost, j and j.cost)
        if j then check_walk(g, j, sx, sy, gx, gy) end
      end
    end
    -- an empty map: a short query around a wall costs a few expansions, not
    -- scans across the map (bench/open.lua times it)
    local open = astar.grid(2000, 2000)
    for y = 1005, 1025 do open:set_blocked(1015, y, true) end
    local p = assert(open:find_path(1000, 1000, 1060, 1030))
    assert.equal(open:find_path(1000, 1000, 1060, 1030, { algorithm = "astar" }).cost, p.cost)
    check_walk(open, p, 1000, 1000, 1060, 1030)
  end)

  it("tie_break fifo and a grid search after close of another query #pure", function()
    local g = maze()
    local a = g:find_path(40, 1, 1, 40, { algorithm = "astar" })
    local f = g:find_path(40, 1, 1, 40, { tie_break = "fifo" })
    assert.equal(a.cost, f.cost)
    check_walk(g, f, 40, 1, 1, 40)
  end)
end)

-- Moving AI maps: a sample of rows in make test, every row under #system
-- (make test-system; spec/maps_spec.lua checks the files themselves).
local function sweep(step, check_cells)
  return helpers.moving_ai_sweep(astar.maps.load, step, check_cells and check_walk)
end

describe("jps: Moving AI rows (a sample)", function()
  it("every 199th row of every map: optimal, every path a legal walk #pure", function()
    assert(sweep(199, true) > 140)
  end)
end)

describe("jps: every Moving AI row #system #benchmark", function()
  it("all 29,649 rows of ../shared/maps with the default algorithm are optimal", function()
    assert.equal(29649, sweep(1, false))
  end)
end)
