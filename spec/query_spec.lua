-- Time-sliced queries (graph:query, grid:query), budgets (max_expansions,
-- max_cost) and partial paths.  A query stepped in slices of any size must
-- give exactly what find_path gives (path, stats, trace, callback calls);
-- queries live side by side, in coroutines, through errors, changes,
-- cancellation and garbage collection.  Budgets are checked against a plain
-- Dijkstra and partial paths against the reached set rebuilt here from the
-- trace.  Fixed-seed Park-Miller generator: identical runs on every Lua.
local astar = require("astar")
local error_of = require("helpers").error_of
local close = require("helpers").close
local worlds = require("worlds")

local D = astar.DIAGONAL
local RULES = worlds.RULES
local FAILED = "this query failed (an error was raised while it ran): start a new one"
local with = worlds.with

-- Fast checks for the hot loops: luassert only on failure (same message).
local function eq(want, got, label)
  if want ~= got then assert.equal(want, got, label) end
end

local function yes(cond, label)
  if not cond then assert.is_true(cond, label) end
end

-- Two trace entries are the same expansion.
local function same_entry(a, b)
  return a.node == b.node and a.parent == b.parent and a.g == b.g and a.f == b.f and a.x == b.x and a.y == b.y
end

-- Packs every value returned, nils included.  A grid path's xy list may be
-- built on first access: read it, so two equal paths compare equal.
local function pack(...)
  local t = { n = select("#", ...), ... }
  if type(t[1]) == "table" then local _ = t[1].xy end
  return t
end

-- ---------------------------------------------------------------------------
-- Worlds: a graph or grid and its description in plain Lua tables.
-- ---------------------------------------------------------------------------

local TAGS = { "door", "mud", "ice" }

-- A random graph.  Integer positions; every edge costs a multiple of 1/4 at
-- least the distance between its ends (euclidean is admissible and every sum
-- is exact); some tags, parallel edges and disabled nodes.
local GRAPHS = { span = 12, tagged = 0.3, tags = TAGS, disabled = 0.06,
  cost = function(r, d) return math.ceil(d * 4) / 4 + r(0, 6) / 4 end }

local function random_graph(seed, n, m) return worlds.random_graph(seed, n, m, GRAPHS) end

-- The cost of graph edge e under the query options o (costs, cost), or nil
-- when the edge cannot be used.  The callback is called only when asked
-- (`call`), so counting callbacks stay exact.
local function edge_cost(w, o, e, call)
  local ed = w.edges[e]
  if w.disabled[ed[2]] then return nil end
  local c = ed[3]
  if ed[4] and o.costs and o.costs[ed[4]] ~= nil then
    if o.costs[ed[4]] == false then return nil end
    c = c * o.costs[ed[4]]
  end
  if o.cost and call then
    c = o.cost(ed[1], ed[2], c, e)
    if c == false then return nil end
  end
  return c
end

-- Plain single-source Dijkstra, O(n^2).
local function graph_dijkstra(w, o, s)
  local dist, done = {}, {}
  for i = 1, w.n do dist[i] = math.huge end
  if w.disabled[s] then return dist end
  dist[s] = 0
  for _ = 1, w.n do
    local u, best = nil, math.huge
    for i = 1, w.n do
      if not done[i] and dist[i] < best then u, best = i, dist[i] end
    end
    if not u then break end
    done[u] = true
    for e, ed in pairs(w.edges) do
      if ed[1] == u then
        local c = edge_cost(w, o, e, true)
        if c and dist[u] + c < dist[ed[2]] then dist[ed[2]] = dist[u] + c end
      end
    end
  end
  return dist
end

-- The path is a chain of edges from s, the costs under o sum to its cost.
local function assert_graph_chain(w, o, p, s, t)
  eq(s, p.nodes[1])
  if t then eq(t, p.nodes[#p.nodes]) end
  eq(#p.nodes - 1, #p.edges)
  local sum = 0
  for i, e in ipairs(p.edges) do
    eq(p.nodes[i], w.edges[e][1])
    eq(p.nodes[i + 1], w.edges[e][2])
    sum = sum + assert(edge_cost(w, o, e))
  end
  yes(close(sum, p.cost), ("edges sum to %.17g, cost says %.17g"):format(sum, p.cost))
end

-- A random grid world: blocked cells, cell costs >= 1, tags.
local GRIDS = { width = { 3, 11 }, height = { 2, 8 }, density = 0.3,
  costed = 0.3, costs = { 1.5, 2, 3 }, tagged = 0.25, tags = TAGS }

local function random_world(seed) return worlds.random_grid(seed, GRIDS) end

local oracle = require("grid_oracle") -- the rules in plain Lua
local passable, grid_step, grid_dijkstra = oracle.passable, oracle.step, oracle.dijkstra

local function assert_grid_chain(world, o, p, sx, sy, gx, gy)
  eq(#p.nodes, #p.xy)
  assert.same({ sx, sy }, p.xy[1])
  if gx then assert.same({ gx, gy }, p.xy[#p.xy]) end
  local sum = 0
  for i = 2, #p.xy do
    local a, b = p.xy[i - 1], p.xy[i]
    eq((b[2] - 1) * world.w + b[1], p.nodes[i])
    sum = sum + assert(grid_step(world, o, a[1], a[2], b[1], b[2]))
  end
  yes(close(sum, p.cost), ("steps sum to %.17g, cost says %.17g"):format(sum, p.cost))
end

local function octile(x, y, gx, gy)
  local dx, dy = math.abs(x - gx), math.abs(y - gy)
  return (D - 1) * math.min(dx, dy) + math.max(dx, dy)
end

-- ---------------------------------------------------------------------------
-- Slicing: a query stepped n nodes at a time against find_path.
-- ---------------------------------------------------------------------------

-- What the final status of a query must be, from find_path's answer.
local function final_status(res)
  if res[1] then return res[1].partial and res[1].reason or "found" end
  return res[2]
end

-- Runs `make()` (a fresh query) to the end in slices of `slice` nodes (nil:
-- one step() call) and checks every intermediate state against the
-- find_path answer `want` (which was asked with trace = true).  Returns the
-- number of step calls.
local function run_sliced(make, slice, want, label)
  local q = make()
  local status = final_status(want)
  local stats = want[1] or want[3]
  local total = #stats.trace
  -- a search with a blocked or disabled end is over before it begins
  local first = total == 0 and status == "unreachable" and q:status() or "searching"
  eq(("astar.Query (%s, 0 expanded)"):format(first), tostring(q), label)
  local calls, st = 0
  repeat
    if slice then st = q:step(slice) else st = q:step() end
    calls = calls + 1
    eq(st, q:status(), label)
    if st == "searching" then
      eq(("astar.Query (searching, %d expanded)"):format(calls * slice), tostring(q), label)
    end
    if st == "searching" and slice == 2 then
      -- exactly `slice` more expansions, and the trace so far is a prefix
      local none, why, so_far = q:result()
      eq(nil, none, label)
      eq("searching", why, label)
      eq(calls * slice, so_far.expanded, label)
      eq(calls * slice, #so_far.trace, label)
      for i = (calls - 1) * slice + 1, calls * slice do -- the new entries (earlier ones were checked)
        yes(same_entry(stats.trace[i], so_far.trace[i]), label)
      end
    end
    yes(calls <= total + 2, label .. ": too many steps")
  until st ~= "searching"
  eq(status, st, label)
  assert.same(want, pack(q:result()), label)
  -- final statuses stick
  for _, n in ipairs({ 1, 7 }) do eq(status, q:step(n), label) end
  eq(status, q:step(), label)
  eq(status, q:status(), label)
  local again = pack(q:result())
  eq(want.n, again.n, label)
  eq((want[1] or want[3]).expanded, (again[1] or again[3]).expanded, label)
  eq(want[1] and want[1].cost, again[1] and again[1].cost, label)
  eq(("astar.Query (%s, %d expanded)"):format(status, stats.expanded), tostring(q), label)
  if slice then yes(calls <= math.floor(total / slice) + 1, label) end
  yes(calls == 1 or first == "searching", label)
  return calls
end

describe("time-sliced queries", function()
  it("give exactly find_path's answer on graphs, in slices of every size, in every mode", function()
    local runs, found, modes = 0, 0, {}
    for seed = 1, 8 do
      local w = random_graph(seed, 24, 70)
      local r, g = w.r, w.g
      local hv = {}
      for i = 1, w.n do hv[i] = r(0, 40) / 4 end -- inadmissible: reopenings
      local hcalls, ccalls = 0, 0
      local lua_h = function(n) hcalls = hcalls + 1; return hv[n] end
      local lua_cost = function(from, to, c, e)
        ccalls = ccalls + 1
        local k = (from * 3 + to * 5 + e) % 5
        if k == 0 then return false end
        if k == 1 then return c * 2 end
        return c
      end
      for pair = 1, 3 do
        local s, t = r(1, w.n), r(1, w.n)
        for _, stop in ipairs({ "expand", "first_hit", "optimal" }) do
          for _, tie in ipairs({ "high_g", "fifo" }) do
            local variant = (seed + pair) % 4
            local o = { stop = stop, tie_break = tie, trace = true,
              heuristic = ({ "euclidean", lua_h, "zero", lua_h })[variant + 1] }
            if variant >= 2 then o.cost = lua_cost end
            if variant == 1 then o.costs = { door = 3, mud = false } end
            if (seed + pair) % 3 == 0 then
              o.max_expansions = r(1, 12)
              o.partial = r() < 0.5
            end
            hcalls, ccalls = 0, 0
            local want = pack(g:find_path(s, t, o))
            local h_want, c_want = hcalls, ccalls
            modes[final_status(want)] = true
            if want[1] and not want[1].partial then found = found + 1 end
            for slice = 1, 5 do
              hcalls, ccalls = 0, 0
              local label = ("seed %d %d->%d %s %s v%d slice %d"):format(seed, s, t, stop, tie, variant, slice)
              run_sliced(function() return g:query(s, t, o) end, slice, want, label)
              assert.equal(h_want, hcalls, label .. ": heuristic calls")
              assert.equal(c_want, ccalls, label .. ": cost calls")
              runs = runs + 1
            end
            hcalls, ccalls = 0, 0
            assert.equal(1, run_sliced(function() return g:query(s, t, o) end, nil, want, "step()"))
            assert.equal(h_want, hcalls)
            assert.equal(c_want, ccalls)
          end
        end
      end
    end
    assert.equal(720, runs)
    assert.is_true(found > 60, "too few paths found: " .. found)
    for _, m in ipairs({ "found", "unreachable", "max_expansions" }) do assert.is_true(modes[m], m) end
  end)

  it("give exactly find_path's answer on grids, for every diagonal rule, with callbacks and fields", function()
    local runs, found = 0, 0
    for seed = 1, 12 do
      local world = random_world(seed)
      local r, g = world.r, world.g
      local hcalls, ccalls = 0, 0
      local lua_h = function(x, y, gx, gy)
        hcalls = hcalls + 1
        return (math.abs(x - gx) + math.abs(y - gy)) * 1.5 -- inadmissible
      end
      local lua_cost = function(x1, y1, x2, y2, c)
        ccalls = ccalls + 1
        if (x1 + 2 * y1 + 3 * x2 + y2) % 7 == 0 then return false end
        return c
      end
      local pen = astar.field(g)
      for y = 1, world.h do
        for x = 1, world.w do
          if r() < 0.3 then pen:set(x, y, 2) end
        end
      end
      for pair = 1, 2 do
        local sx, sy, gx, gy = r(1, world.w), r(1, world.h), r(1, world.w), r(1, world.h)
        for _, stop in ipairs({ "expand", "first_hit", "optimal" }) do
          for _, tie in ipairs({ "high_g", "fifo" }) do
            local variant = (seed + pair) % 3
            local o = { stop = stop, tie_break = tie, trace = true, visited = true }
            if variant == 0 then o.heuristic = lua_h; o.cost = lua_cost end
            if variant == 1 then o.penalty = pen; o.costs = { mud = 2, ice = false } end
            if variant == 2 then o.heuristic = "zero"; o.cost = lua_cost end
            hcalls, ccalls = 0, 0
            local want = pack(g:find_path(sx, sy, gx, gy, o))
            local h_want, c_want = hcalls, ccalls
            if want[1] then found = found + 1 end
            for slice = 1, 4 do
              hcalls, ccalls = 0, 0
              local label = ("seed %d (%d,%d)->(%d,%d) %s %s v%d slice %d"):format(seed, sx, sy, gx, gy, stop, tie,
                variant, slice)
              run_sliced(function() return g:query(sx, sy, gx, gy, o) end, slice, want, label)
              assert.equal(h_want, hcalls, label .. ": heuristic calls")
              assert.equal(c_want, ccalls, label .. ": cost calls")
              runs = runs + 1
            end
            run_sliced(function() return g:query(sx, sy, gx, gy, o) end, nil, want, "step()")
          end
        end
      end
    end
    assert.equal(576, runs)
    assert.is_true(found > 80, "too few paths found: " .. found)
  end)

  it("report status and tostring from creation on, and finish on the first step when no search is needed", function()
    local g = astar.graph()
    for i = 1, 3 do g:add_node(i, 0) end
    g:add_edge(1, 2, 1)
    local q = g:query(1, 1)
    assert.equal("searching", q:status())
    assert.equal("astar.Query (searching, 0 expanded)", tostring(q))
    assert.equal("found", q:step())
    local p = assert(q:result())
    assert.same({ 1 }, p.nodes)
    assert.equal(0, p.cost)
    g:set_enabled(3, false)
    q = g:query(1, 3) -- a disabled goal: unreachable from the start
    local st = q:status() -- the search may begin at creation or on the first step
    assert.is_true(st == "searching" or st == "unreachable", st)
    assert.equal("astar.Query (" .. st .. ", 0 expanded)", tostring(q))
    assert.equal("unreachable", q:step(1))
    assert.equal("astar.Query (unreachable, 0 expanded)", tostring(q))
    local none, why, stats = q:result()
    assert.is_nil(none)
    assert.equal("unreachable", why)
    assert.equal(0, stats.expanded)
    q = g:query(2, 1)
    assert.equal("unreachable", q:step(5))
    assert.same(pack(g:find_path(2, 1)), pack(q:result()))
    local grid = astar.grid(6, 1)
    grid:set_blocked(6, 1, true)
    q = grid:query(1, 1, 6, 1)
    assert.equal("unreachable", q:step(1))
    assert.equal("unreachable", q:status())
    q = grid:query(1, 1, 5, 1, { algorithm = "astar" })     -- A*: a cell a step
    assert.equal("searching", q:step(2))
    assert.equal("found", q:step())
    assert.equal(4, q:result().cost)
    assert.same({ { 1, 1 }, { 2, 1 }, { 3, 1 }, { 4, 1 }, { 5, 1 } }, q:result().xy)
  end)

  it("refuse bad step counts and options with exact messages, and stay usable", function()
    local g = astar.graph()
    for i = 1, 4 do g:add_node(i, 0) end
    for i = 1, 3 do g:add_edge(i, i + 1, 1) end
    local grid = astar.grid(4, 4)
    local q = g:query(1, 4)
    local cases = {
      { function() return q:step(0) end, "bad argument #1 to 'step' (n must be an integer in 1..2^53, got 0)" },
      { function() return q:step(-2) end, "bad argument #1 to 'step' (n must be an integer in 1..2^53, got -2)" },
      { function() return q:step(1.5) end, "bad argument #1 to 'step' (n must be an integer in 1..2^53, got 1.5)" },
      { function() return q:step("2") end, "bad argument #1 to 'step' (n must be an integer in 1..2^53, got \"2\")" },
      { function() return q:step(0 / 0) end, "bad argument #1 to 'step' (n must be an integer in 1..2^53, got nan)" },
      { function() return q:step(true) end, "bad argument #1 to 'step' (n must be an integer in 1..2^53, got true)" },
      { function() return g:query(1, 5) end, "bad argument #2 to 'query' (node 5 does not exist (the graph has 4 nodes))" },
      { function() return g:query(1, 2, { huristic = "zero" }) end, "bad argument #3 to 'query' (unknown option \"huristic\")" },
      { function() return g:query(1, 2, 5) end, "bad argument #3 to 'query' (table expected, got number)" },
      { function() return g:query(1, 2, { stop = "now" }) end,
        "bad argument #3 to 'query' (stop must be \"expand\", \"first_hit\" or \"optimal\", got \"now\")" },
      { function() return grid:query(1, 1, 5, 1) end, "bad argument #3 to 'query' (x must be an integer in 1..4, got 5)" },
      { function() return grid:query(1, 1, 2, 2, { direction = "to_sources" }) end,
        "bad argument #5 to 'query' (unknown option \"direction\")" },
    }
    for _, c in ipairs(cases) do
      assert.equal(c[2], error_of(c[1]))
      assert.equal("searching", q:status()) -- the query is untouched
    end
    assert.equal("searching", q:step(1))
    assert.equal("found", q:step())
    assert.equal(3, q:result().cost)
    assert.equal(3, g:find_path(1, 4).cost)
  end)
end)

describe("queries side by side", function()
  it("interleave on one graph and one grid, each giving its own find_path answer", function()
    local w = random_graph(77, 30, 90)
    local world = random_world(78)
    local r = w.r
    local live = {}
    for i = 1, 10 do
      local s, t = r(1, w.n), r(1, w.n)
      local o = { stop = ({ "expand", "first_hit", "optimal" })[i % 3 + 1], trace = true,
        heuristic = i % 2 == 0 and "zero" or function(n) return (n * 7 % 5) / 2 end }
      live[#live + 1] = { q = w.g:query(s, t, o), want = pack(w.g:find_path(s, t, o)) }
      local sx, sy, gx, gy = r(1, world.w), r(1, world.h), r(1, world.w), r(1, world.h)
      o = { trace = true, tie_break = i % 2 == 0 and "fifo" or "high_g" }
      live[#live + 1] = { q = world.g:query(sx, sy, gx, gy, o), want = pack(world.g:find_path(sx, sy, gx, gy, o)) }
    end
    local pending = #live
    while pending > 0 do
      pending = 0
      for i, l in ipairs(live) do
        if l.q:status() == "searching" then
          l.q:step(r(1, 3))
          pending = pending + 1
        end
        if i % 5 == 0 then -- find_path in between uses the topology's own search state
          w.g:find_path(1, w.n)
          world.g:find_path(1, 1, world.w, world.h)
        end
      end
    end
    for i, l in ipairs(live) do
      assert.same(l.want, pack(l.q:result()), "query " .. i)
    end
  end)

  it("can be stepped from a callback of another query on the same graph", function()
    local w = random_graph(5, 20, 60)
    local g = w.g
    local inner = g:query(1, 20, { trace = true })
    local want_inner = pack(g:find_path(1, 20, { trace = true }))
    local outer = g:query(20, 1, { trace = true, heuristic = function()
      if inner:status() == "searching" then inner:step(1) end
      return 0
    end })
    local want_outer = pack(g:find_path(20, 1, { trace = true, heuristic = "zero" }))
    outer:step()
    assert.same(want_outer, pack(outer:result()))
    inner:step()
    assert.same(want_inner, pack(inner:result()))
  end)

  it("run inside coroutines: callbacks run on the coroutine that steps", function()
    local world = random_world(31)
    local g = world.g
    local cos, wants, results = {}, {}, {}
    local current
    for i = 1, 8 do
      local sx, sy = (i - 1) % world.w + 1, 1
      local gx, gy = world.w - (i - 1) % world.w, world.h
      local o = { trace = true, heuristic = function(x, y, tx, ty)
        assert.equal(current, coroutine.running())
        return octile(x, y, tx, ty)
      end, cost = function(_, _, _, _, c)
        assert.equal(current, coroutine.running())
        return c
      end }
      wants[i] = pack(g:find_path(sx, sy, gx, gy, { trace = true }))
      cos[i] = coroutine.create(function()
        current = coroutine.running()
        local q = g:query(sx, sy, gx, gy, o)
        while q:step(2) == "searching" do
          coroutine.yield()
          current = coroutine.running()
        end
        return q:result()
      end)
    end
    local done = 0
    while done < #cos do
      done = 0
      for i, co in ipairs(cos) do
        if coroutine.status(co) == "suspended" then
          results[i] = pack(coroutine.resume(co))
          assert.is_true(results[i][1], results[i][2])
        else
          done = done + 1
        end
      end
    end
    for i = 1, #cos do
      local got = { n = results[i].n - 1 } -- without the true of resume
      for k = 1, got.n do got[k] = results[i][k + 1] end
      if got[1] then local _ = got[1].xy end -- built on first access
      assert.same(wants[i], got, "coroutine " .. i)
    end
  end)

  it("can be stepped by two coroutines in turn, and by the main thread", function()
    local w = random_graph(9, 30, 100)
    local g = w.g
    local current
    local h = function(n)
      assert.equal(current, coroutine.running())
      return (n % 4) / 4
    end
    current = coroutine.running()
    local want = pack(g:find_path(1, 30, { heuristic = h, stop = "optimal", trace = true }))
    local q = g:query(1, 30, { heuristic = h, stop = "optimal", trace = true })
    local function stepper()
      return coroutine.create(function()
        while true do
          current = coroutine.running()
          if q:step(1) ~= "searching" then return end
          coroutine.yield()
        end
      end)
    end
    local a, b = stepper(), stepper()
    local turns = 0
    while q:status() == "searching" do
      turns = turns + 1
      local co = turns % 3 == 0 and "main" or (turns % 3 == 1 and a or b)
      if co == "main" then
        current = coroutine.running()
        q:step(1)
      else
        local ok, err = coroutine.resume(co)
        assert.is_true(ok, err)
      end
    end
    assert.is_true(turns > 3)
    assert.same(want, pack(q:result()))
  end)
end)

describe("queries and errors", function()
  -- a 1 -> 2 -> 3 -> 4 chain plus a costly shortcut 1 -> 4
  local function chain()
    local g = astar.graph()
    for i = 1, 4 do g:add_node(i, 0) end
    for i = 1, 3 do g:add_edge(i, i + 1, 1) end
    g:add_edge(1, 4, 5)
    return g
  end

  local function assert_healthy(g)
    assert.equal(3, g:find_path(1, 4).cost)
    local q = g:query(1, 4)
    assert.equal("found", q:step())
    assert.equal(3, q:result().cost)
    local e = g:add_edge(4, 1, 1) -- unlocked: mutation is allowed
    assert.equal(g:edge_count(), e)
  end

  local function assert_failed(q)
    assert.equal(FAILED, error_of(q.step, q))
    assert.equal(FAILED, error_of(q.step, q, 1))
    assert.equal(FAILED, error_of(q.result, q))
    assert.equal("failed", q:status())
  end

  it("a callback error reaches step() unchanged; the query is then failed, the graph unlocked", function()
    for _, kind in ipairs({ "heuristic", "cost" }) do
      local g = chain()
      local obj = {}
      for _, errv in ipairs({ "boom", obj }) do
        local armed = false
        local cb = function(_, _, c)
          if armed then error(errv, 0) end
          return kind == "cost" and c or 0
        end
        local q = g:query(1, 4, { [kind] = cb })
        assert.equal("searching", q:step(1))
        armed = true
        local ok, err = pcall(q.step, q)
        assert.is_false(ok)
        assert.equal(errv, err)
        assert_failed(q)
        assert_healthy(g)
      end
    end
  end)

  it("a bad callback value raises the callback message and fails the query", function()
    local g = chain()
    local q = g:query(1, 4, { heuristic = function(n) return n == 3 and -1 or 0 end })
    assert.equal("heuristic returned -1 for node 3 (expected a finite number >= 0)", error_of(q.step, q))
    assert_failed(q)
    assert_healthy(g)
    local grid = astar.grid(3, 3)
    q = grid:query(1, 1, 3, 3, { cost = function(_, _, x2, y2, c) return (x2 == 2 and y2 == 2) and 0 / 0 or c end })
    assert.equal("cost callback returned nan for the step from (1, 1) to (2, 2) (expected a finite number >= 0 or false)",
      error_of(q.step, q))
    assert_failed(q)
    assert.equal(2 * D, grid:find_path(1, 1, 3, 3).cost)
  end)

  it("an error of the start's heuristic reaches query() or the first step() unchanged", function()
    local g = chain()
    local obj = {}
    local q
    local ok, err = pcall(function()
      q = g:query(1, 4, { heuristic = function() error(obj) end })
      return q:step(1)
    end)
    assert.is_false(ok)
    assert.equal(obj, err)
    if q then assert_failed(q) end
    assert_healthy(g)
  end)

  it("a callback that changes the graph mid-step raises; the query fails, the graph is unchanged", function()
    local g = chain()
    local q = g:query(1, 4, { cost = function(from, _, c)
      if from == 2 then g:set_cost(1, 9) end
      return c
    end })
    assert.equal("cannot call 'set_cost': graph is being searched", error_of(q.step, q))
    assert_failed(q)
    assert.equal(1, select(3, g:edge(1)))
    assert_healthy(g)
  end)

  it("a callback that yields raises, and the query is failed", function()
    local g = chain()
    local q = g:query(1, 4, { heuristic = function(n)
      if n > 1 then coroutine.yield("no") end
      return 0
    end })
    local co = coroutine.create(function() return q:step() end)
    local ok, err = coroutine.resume(co)
    assert.is_false(ok)
    assert.matches("attempt to yield across", err)
    assert_failed(q)
    assert_healthy(g)
    -- the start's heuristic, at creation or on the first step
    co = coroutine.create(function()
      return g:query(1, 4, { heuristic = function() coroutine.yield() return 0 end }):step(1)
    end)
    ok, err = coroutine.resume(co)
    assert.is_false(ok)
    assert.matches("attempt to yield across", err)
    assert_healthy(g)
  end)

  it("a callback that cancels its own query: the step ends, then the query is cancelled", function()
    local g = chain()
    local q
    q = g:query(1, 4, { heuristic = function() if q then q:cancel() end return 0 end })
    assert.equal("found", q:step())
    assert.equal("cancelled", q:status())
    local none, why = q:result()
    assert.is_nil(none)
    assert.equal("cancelled", why)
    assert_healthy(g)
  end)

  it("a callback may read its own query: searching, with the expansions so far", function()
    local g = chain()
    local q
    local seen = {}
    q = g:query(1, 4, { trace = true, heuristic = function()
      if q then
        local none, why, stats = q:result()
        seen[#seen + 1] = { q:status(), none, why, stats.expanded, #stats.trace, tostring(q) }
      end
      return 0
    end })
    assert.equal("found", q:step())
    assert.same(pack(g:find_path(1, 4, { trace = true, heuristic = "zero" })), pack(q:result()))
    assert.is_true(#seen >= 2)
    for _, s in ipairs(seen) do
      assert.equal("searching", s[1])
      assert.is_nil(s[2])
      assert.equal("searching", s[3])
      assert.equal(s[4], s[5])
      assert.equal(("astar.Query (searching, %d expanded)"):format(s[4]), s[6])
    end
  end)

  it("a callback that steps its own query raises, and the query is failed", function()
    local g = chain()
    local q
    q = g:query(1, 4, { heuristic = function() if q then q:step(1) end return 0 end })
    assert.equal("cannot step a query while it is stepping", error_of(q.step, q))
    assert_failed(q)
    assert_healthy(g)
  end)

  -- A result without its restart count: what find_path would say.
  local function plain(res)
    if type(res[1]) == "table" then res[1].restarts = nil end
    if type(res[3]) == "table" then res[3].restarts = nil end
    return res
  end

  it("a change to the graph between steps repairs the search (the default) or restarts it (on_change = 'restart')", function()
    local changes = {
      function(g) g:add_node(5, 5) end,
      function(g) g:add_edge(4, 1, 2) end,
      function(g) g:connect(2, 4, 1) end,
      function(g) g:set_cost(2, 7) end,
      function(g) g:set_enabled(3, false) end,
      function(g) g:set_enabled(3, false); g:set_enabled(3, true) end, -- back and forth
    }
    for i, change in ipairs(changes) do
      for _, stepped in ipairs({ true, false }) do
        for _, opts in ipairs({ { heuristic = "zero" }, { heuristic = "zero", on_change = "restart" } }) do
          local g = chain()
          local q = g:query(1, 4, opts)
          if stepped then assert.equal("searching", q:step(1)) end
          change(g)
          local status = q:step()
          assert.is_true(status == "found" or status == "unreachable", status)
          local res = pack(q:result())
          local stats = res[1] or res[3]
          -- a query that never stepped simply begins on the changed graph
          local repairs = opts.on_change == nil
          eq(stepped and not repairs and 1 or nil, stats.restarts, "change " .. i)
          eq(stepped and repairs and 1 or nil, stats.repairs, "change " .. i)
          local fresh = pack(g:find_path(1, 4, { heuristic = "zero" }))
          if stepped and repairs then -- the answer; the counts are the repaired search's
            assert.equal(fresh[2], res[2])
            if fresh[1] then
              assert.equal(fresh[1].cost, res[1].cost)
              assert.same(fresh[1].nodes, res[1].nodes)
            end
          else
            assert.same(fresh, plain(res))
          end
          assert.equal(g:node_count() + 1, g:add_node(0, 0)) -- unlocked
        end
      end
    end
  end)

  it("a change to the graph between steps ends the query with 'changed' (on_change = 'fail')", function()
    local g = chain()
    local q = g:query(1, 4, { heuristic = "zero", on_change = "fail" })
    assert.equal("searching", q:step(1))
    g:set_cost(2, 7)
    assert.equal("changed", q:step())
    assert.equal("changed", q:status())
    assert.equal("changed", q:step(3))       -- final, like any outcome
    local p, why, stats = q:result()
    assert.is_nil(p)
    assert.equal("changed", why)
    assert.equal(1, stats.expanded)
    assert.is_nil(stats.restarts)
    g:set_cost(2, 1)                          -- later changes change nothing
    assert.same({ n = 3, nil, "changed", stats }, pack(q:result()))
    -- never stepped: nothing was searched on the old graph, it just begins
    q = g:query(1, 4, { on_change = "fail" })
    g:add_node(9, 9)
    assert.equal("found", q:step())
    assert.same(pack(g:find_path(1, 4)), pack(q:result()))
    assert_healthy(g)
  end)

  it("a mutator that changes nothing leaves live queries alone", function()
    local g = chain()
    local q = g:query(1, 4, { heuristic = "zero" })
    assert.equal("searching", q:step(1))
    g:set_enabled(3, true)        -- already enabled
    g:set_cost(1, select(3, g:edge(1))) -- the same cost
    assert.equal("found", q:step())
    local grid = astar.grid(4, 4)
    local gq = grid:query(1, 1, 4, 4)
    assert.equal("searching", gq:step(1))
    grid:set_blocked(2, 2, false) -- already open
    grid:set_cost(3, 3, 1)        -- already 1
    grid:set_tag(3, 3, nil)       -- already untagged
    assert.equal("found", gq:step())
  end)

  it("a change to the grid between steps restarts or fails, as on_change says, every step of the way", function()
    -- (on_change = "repair", the default, is spec/repair_spec.lua's)
    local changes = {
      function(g) g:set_blocked(3, 2, true) end,
      function(g) g:set_cost(3, 2, 2) end,
      function(g) g:set_tag(3, 3, "mud") end,
      function(g) for y = 1, 4 do g:set_blocked(4, y, true) end end,
      function(g) for y = 1, 5 do g:set_blocked(4, y, true) end end, -- walls the goal off
    }
    for i, change in ipairs(changes) do
      local g = astar.grid(5, 5)
      local q = g:query(1, 1, 5, 5, { algorithm = "astar", on_change = "restart" })
      local f = g:query(1, 1, 5, 5, { on_change = "fail", algorithm = "astar" })
      assert.equal("searching", q:step(1))
      assert.equal("searching", f:step(1))
      change(g)
      assert.equal("changed", f:step(1), "change " .. i)
      assert.equal("changed", select(2, f:result()))
      local status = q:step(1)
      assert.is_true(status == "searching" or status == "unreachable", status)
      q:step()
      local res = pack(q:result())
      eq(1, (res[1] or res[3]).restarts, "change " .. i)
      assert.same(pack(g:find_path(1, 1, 5, 5, { algorithm = "astar" })), plain(res))
    end
    -- any-angle queries restart and fail the same way (walls with gaps at
    -- alternate ends, so that even jump point search, under the fast
    -- any-angle mode, takes more than 5 expansions)
    local g2 = astar.grid(40, 40)
    for k, x in ipairs({ 4, 8, 12, 16 }) do
      for y = 1, 40 do
        if (k % 2 == 1 and y < 40) or (k % 2 == 0 and y > 1) then g2:set_blocked(x, y, true) end
      end
    end
    local aq = g2:query(1, 1, 40, 40, { any_angle = true })
    local af = g2:query(1, 1, 40, 40, { any_angle = true, on_change = "fail" })
    assert.equal("searching", aq:step(5))
    assert.equal("searching", af:step(5))
    for y = 1, 39 do g2:set_blocked(20, y, true) end
    assert.equal("found", aq:step())
    assert.equal(1, aq:result().restarts)
    assert.equal(g2:find_path(1, 1, 40, 40, { any_angle = true }).cost, aq:result().cost)
    assert.equal("changed", af:step())
    assert.equal(5, select(3, af:result()).expanded)
    -- a change between every two steps: each step begins again
    local g = astar.grid(30, 30)
    local q = g:query(1, 1, 30, 30, { algorithm = "astar", on_change = "restart" })
    for k = 1, 10 do
      assert.equal("searching", q:step(5))
      g:set_blocked(10 + k, 15, true)
    end
    assert.equal("found", q:step())
    local p = q:result()
    assert.equal(10, p.restarts)
    assert.same(pack(g:find_path(1, 1, 30, 30, { algorithm = "astar" })), plain(pack(p)))
  end)

  it("the result of a finished query does not change when the graph changes afterwards", function()
    local g = chain()
    local q = g:query(1, 4)
    assert.equal("found", q:step())
    assert.equal(3, q:result().cost)
    g:set_cost(1, 100)
    assert.equal("found", q:step())
    local ok, p = pcall(q.result, q)
    if ok then
      assert.equal(3, p.cost) -- what the search found, not a cost it never saw
    else
      assert.equal("the graph changed since this query began (start a new query)", p:gsub("^[^\n]-:%d+: ", "", 1))
    end
  end)

  it("are cancelled when their graph or grid is closed", function()
    local g = chain()
    local q = g:query(1, 4)
    local done = g:query(1, 4)
    done:step()
    q:step(1)
    g:close()
    assert.equal("cancelled", q:status())
    assert.equal("cancelled", q:step())
    local none, why = q:result()
    assert.is_nil(none)
    assert.equal("cancelled", why)
    -- a finished query's result is a snapshot: it outlives the graph
    assert.equal(3, done:result().cost)
    assert.equal("found", done:status())
    local grid = astar.grid(3, 3)
    q = grid:query(1, 1, 3, 3)
    grid:close()
    assert.equal("cancelled", q:step(1))
    assert.equal("astar.Query (cancelled, 0 expanded)", tostring(q))
  end)
end)

describe("cancelled queries", function()
  it("step 'cancelled' and result nil, 'cancelled'; cancel twice is fine #pure", function()
    local g = astar.grid(20, 20)
    for _, steps in ipairs({ 0, 1, 5 }) do
      local q = g:query(1, 1, 20, 20, { algorithm = "astar" }) -- A*: 5 steps do not finish
      if steps > 0 then q:step(steps) end
      q:cancel()
      assert.equal("cancelled", q:step())
      assert.equal("cancelled", q:step(3))
      assert.equal("cancelled", q:status())
      local none, why = q:result()
      assert.is_nil(none)
      assert.equal("cancelled", why)
      assert.equal("astar.Query (cancelled, 0 expanded)", tostring(q))
      q:cancel()
      assert.equal("cancelled", q:step())
    end
    -- cancelling a finished query frees its search but keeps its result:
    -- final statuses stick
    local done = g:query(1, 1, 20, 20)
    assert.equal("found", done:step())
    done:cancel()
    assert.equal("found", done:step())
    assert.equal("found", done:status())
    assert.equal(19 * D, done:result().cost)
    -- a failed query stays failed
    local q = g:query(1, 1, 20, 20, { cost = function() error("x") end })
    assert.is_false(pcall(q.step, q))
    q:cancel()
    assert.equal(FAILED, error_of(q.step, q))
    assert.equal(19 * D, g:find_path(1, 1, 20, 20).cost)
  end)

  if _VERSION == "Lua 5.4" then
    it("are cancelled by a to-be-closed variable #pure", function()
      local g = astar.grid(20, 20)
      local q = assert(load([[
        local g, out = ...
        do
          local q <close> = g:query(1, 1, 20, 20, { algorithm = "astar" })
          assert(q:step(3) == "searching")
          out = q
        end
        return out
      ]]))(g)
      assert.equal("cancelled", q:status())
      assert.equal("cancelled", q:step())
      assert.equal("cancelled", select(2, q:result()))
    end)
  end
end)

describe("queries and the garbage collector", function()
  it("many queries created and dropped leave graphs and grids working", function()
    local w = random_graph(3, 20, 60)
    local grid = astar.grid(16, 16)
    for i = 1, 300 do
      local q = i % 2 == 0 and w.g:query(1, 20, { cost = function(_, _, c) return c end })
        or grid:query(1, 1, 16, 16, { penalty = astar.field(grid, 1) })
      if i % 3 == 0 then q:step(i % 7 + 1) end
      if i % 5 == 0 then q:cancel() end
      if i % 50 == 0 then collectgarbage() end
    end
    collectgarbage()
    collectgarbage()
    assert.same(pack(w.g:find_path(1, 20)), pack(w.g:find_path(1, 20)))
    assert.equal(15 * D, grid:find_path(1, 1, 16, 16).cost)
    grid:set_blocked(2, 2, true)
    w.g:add_node(0, 0)
  end)

  it("a query keeps its graph, callbacks and fields alive", function()
    local function make_graph_query()
      local g = astar.graph()
      for i = 1, 50 do g:add_node(i, 0) end
      for i = 1, 49 do g:add_edge(i, i + 1, 1) end
      return g:query(1, 50, { cost = function(_, _, c) return 2 * c end })
    end
    local function make_grid_query()
      local g = astar.grid(30, 30)
      return g:query(1, 1, 30, 1, { penalty = astar.field(g, 1), heuristic = function() return 0 end })
    end
    local q1, q2 = make_graph_query(), make_grid_query()
    assert.equal("searching", q1:step(3))
    for _ = 1, 3 do collectgarbage() end
    assert.equal("found", q1:step())
    assert.equal(98, q1:result().cost)
    assert.equal("found", q2:step())
    assert.equal(58, q2:result().cost)
  end)
end)

-- ---------------------------------------------------------------------------
-- Budgets and partial paths
-- ---------------------------------------------------------------------------

-- The nodes a search reached (put on the open list), rebuilt from its trace:
-- the start, and every successor of an expansion whose cost stays within
-- max_cost.
local function graph_reached(w, o, s, trace)
  local reached = { [s] = true }
  local max_cost = o.max_cost or math.huge
  for _, t in ipairs(trace) do
    for e, ed in pairs(w.edges) do
      if ed[1] == t.node then
        local c = edge_cost(w, o, e, true)
        if c and t.g + c <= max_cost then reached[ed[2]] = true end
      end
    end
  end
  return reached
end

local function grid_reached(world, o, sx, sy, trace)
  local reached = { [(sy - 1) * world.w + sx] = true }
  local max_cost = o.max_cost or math.huge
  for _, t in ipairs(trace) do
    for dy = -1, 1 do
      for dx = -1, 1 do
        local c = grid_step(world, o, t.x, t.y, t.x + dx, t.y + dy)
        if c and t.g + c <= max_cost then reached[(t.y + dy - 1) * world.w + t.x + dx] = true end
      end
    end
  end
  return reached
end

-- The reached node with the smallest h, and that value; `unique` when no
-- other reached node has it.
local function smallest(reached, h)
  local best, bh, unique = nil, math.huge, true
  for v in pairs(reached) do
    local hv = h(v)
    if hv < bh then
      best, bh, unique = v, hv, true
    elseif hv == bh then
      unique = false
    end
  end
  return best, bh, unique
end

describe("budgets", function()
  it("max_expansions = n stops after exactly n expansions, the first n of the unlimited search", function()
    local count = 0
    for seed = 1, 10 do
      local w = random_graph(seed, 30, 80)
      local world = random_world(seed + 50)
      for _ = 1, 4 do
        local s, t = w.r(1, w.n), w.r(1, w.n)
        local full = pack(w.g:find_path(s, t, { trace = true, heuristic = "zero" }))
        local stats = full[1] or full[3]
        for n = 1, stats.expanded - 1 do
          local o = { trace = true, heuristic = "zero", max_expansions = n }
          local p, why, st = w.g:find_path(s, t, o)
          assert.is_nil(p)
          eq("max_expansions", why)
          eq(n, st.expanded)
          for i = 1, n do yes(same_entry(stats.trace[i], st.trace[i]), "trace entry " .. i) end
          assert.is_nil(st.partial)
          local q = w.g:query(s, t, o)
          repeat until q:step(2) ~= "searching"
          eq("max_expansions", q:status())
          local qp, qwhy, qst = q:result()
          eq(nil, qp)
          eq("max_expansions", qwhy)
          eq(n, qst.expanded)
          yes(same_entry(st.trace[n], qst.trace[n]), "last entry")
          count = count + 1
        end
        -- enough budget: the same answer as without one
        if stats.expanded > 0 then
          assert.same(full, pack(w.g:find_path(s, t, { trace = true, heuristic = "zero",
            max_expansions = stats.expanded })))
        end
        local sx, sy, gx, gy = world.r(1, world.w), world.r(1, world.h), world.r(1, world.w), world.r(1, world.h)
        local gfull = pack(world.g:find_path(sx, sy, gx, gy, { visited = true }))
        local gstats = gfull[1] or gfull[3]
        for n = 1, gstats.expanded - 1, 2 do
          local p, why, st = world.g:find_path(sx, sy, gx, gy, { visited = true, max_expansions = n })
          assert.is_nil(p)
          eq("max_expansions", why)
          eq(n, st.expanded)
          eq(n, #st.visited)
          for i = 1, n do eq(gstats.visited[i], st.visited[i]) end
          count = count + 1
        end
      end
    end
    yes(count > 400, "too few budgets checked: " .. count)
  end)

  it("max_cost prunes: below the optimum nil, 'max_cost'; at or above it the optimum", function()
    local checked = 0
    for seed = 11, 30 do
      local w = random_graph(seed, 30, 90)
      local o = { costs = seed % 2 == 0 and { door = 2, mud = false } or nil }
      for _ = 1, 4 do
        local s, t = w.r(1, w.n), w.r(1, w.n)
        local opt = graph_dijkstra(w, o, s)[t]
        if opt < math.huge and opt > 0 then
          for _, h in ipairs({ "euclidean", "zero" }) do
            for _, stop in ipairs({ "expand", "optimal" }) do
              for _, mc in ipairs({ 0, opt / 2, opt - 0.25, opt, opt + 0.25, opt * 3 }) do
                local label = ("seed %d %d->%d %s %s max_cost %g (optimum %g)"):format(seed, s, t, h, stop, mc, opt)
                local p, why, st = w.g:find_path(s, t, with(o, { heuristic = h, stop = stop, max_cost = mc }))
                if mc < opt then
                  assert.is_nil(p, label)
                  eq("max_cost", why, label)
                  yes(st.expanded >= 1, label)
                else
                  eq(opt, p.cost, label)
                  assert_graph_chain(w, o, p, s, t)
                end
                checked = checked + 1
              end
            end
          end
        end
      end
    end
    for seed = 31, 50 do
      local world = random_world(seed)
      local o = { costs = { mud = 2 } }
      local sx, sy, gx, gy = world.r(1, world.w), world.r(1, world.h), world.r(1, world.w), world.r(1, world.h)
      local opt = grid_dijkstra(world, o, sx, sy)[(gy - 1) * world.w + gx]
      if opt < math.huge and opt > 0 then
        for _, mc in ipairs({ 0, opt - 0.5, opt, opt + 1 }) do
          local q = world.g:query(sx, sy, gx, gy, with(o, { max_cost = mc }))
          repeat until q:step(3) ~= "searching"
          local p, why = q:result()
          if mc < opt then
            eq("max_cost", q:status())
            assert.is_nil(p)
            eq("max_cost", why)
          else
            eq(opt, p.cost)
            assert_grid_chain(world, o, p, sx, sy, gx, gy)
          end
          checked = checked + 1
        end
      end
    end
    yes(checked > 400, "too few budgets checked: " .. checked)
  end)

  it("max_cost = math.huge is no budget #pure", function()
    local g = astar.grid(10, 10)
    assert.equal(9 * D, g:find_path(1, 1, 10, 10, { max_cost = math.huge }).cost)
  end)

  local bad = {
    { { max_expansions = 0 }, "max_expansions must be an integer in 1..2^53, got 0" },
    { { max_expansions = -3 }, "max_expansions must be an integer in 1..2^53, got -3" },
    { { max_expansions = 2.5 }, "max_expansions must be an integer in 1..2^53, got 2.5" },
    { { max_expansions = "10" }, "max_expansions must be an integer in 1..2^53, got \"10\"" },
    { { max_expansions = 0 / 0 }, "max_expansions must be an integer in 1..2^53, got nan" },
    { { max_expansions = math.huge }, "max_expansions must be an integer in 1..2^53, got inf" },
    { { max_expansions = false }, "max_expansions must be an integer in 1..2^53, got false" },
    { { max_cost = -1 }, "max_cost must be a number >= 0, got -1" },
    { { max_cost = 0 / 0 }, "max_cost must be a number >= 0, got nan" },
    { { max_cost = -math.huge }, "max_cost must be a number >= 0, got -inf" },
    { { max_cost = "5" }, "max_cost must be a number >= 0, got \"5\"" },
    { { max_cost = {} }, "max_cost must be a number >= 0, got table" },
    { { partial = 1 }, "partial must be a boolean, got 1" },
    { { partial = "yes" }, "partial must be a boolean, got \"yes\"" },
    { { partial = {} }, "partial must be a boolean, got table" },
  }
  for _, c in ipairs(bad) do
    local k = next(c[1])
    it("refuses " .. k .. " = " .. c[2]:match("got (.*)$") .. " with an exact message", function()
      local g = astar.graph()
      g:add_node(0, 0); g:add_node(1, 0); g:add_edge(1, 2, 1)
      local grid = astar.grid(3, 3)
      assert.equal("bad argument #3 to 'find_path' (" .. c[2] .. ")", error_of(g.find_path, g, 1, 2, c[1]))
      assert.equal("bad argument #3 to 'query' (" .. c[2] .. ")", error_of(g.query, g, 1, 2, c[1]))
      assert.equal("bad argument #5 to 'find_path' (" .. c[2] .. ")", error_of(grid.find_path, grid, 1, 1, 3, 3, c[1]))
      assert.equal("bad argument #5 to 'query' (" .. c[2] .. ")", error_of(grid.query, grid, 1, 1, 3, 3, c[1]))
      assert.equal(1, g:find_path(1, 2).cost)
      assert.equal(2 * D, grid:find_path(1, 1, 3, 3).cost)
    end)
  end
end)

describe("partial paths", function()
  it("on graphs: the path to the reached node with the smallest h, for every reason", function()
    local reasons = {}
    for seed = 1, 30 do
      local w = random_graph(seed + 100, 30, 70)
      local r = w.r
      local s, t = r(1, w.n), r(1, w.n)
      -- distinct values: the expected node is unique
      local hv = {}
      for i = 1, w.n do hv[i] = r(0, 1000) / 8 + i / 1024 end
      local h = function(n) return hv[n] end
      local o = { heuristic = h, trace = true, costs = seed % 3 == 0 and { door = false } or nil }
      local opt = graph_dijkstra(w, o, s)[t]
      local variants = {
        { max_expansions = r(1, 8) },
        { max_cost = opt < math.huge and opt / 2 or r(1, 6) },
        {},
      }
      for _, v in ipairs(variants) do
        local oo = with(o, v)
        local plain = pack(w.g:find_path(s, t, oo))
        oo.partial = true
        local res = pack(w.g:find_path(s, t, oo))
        local p = res[1]
        local q = w.g:query(s, t, oo)
        repeat until q:step(1) ~= "searching"
        assert.same(res, pack(q:result()))
        if w.disabled[s] then
          assert.same(plain, res) -- nothing reached: no partial path
        elseif w.disabled[t] then -- luacheck: ignore 542
          -- (a disabled goal: nothing is searched, so no partial path is promised)
        elseif plain[1] then
          assert.is_nil(p.partial) -- found: an ordinary path
          assert.same(plain[1], p)
        else
          local reason = plain[2]
          reasons[reason] = true
          assert.is_nil(plain[3].partial)
          assert.is_true(p.partial)
          assert.equal(reason, p.reason)
          assert.equal(reason, q:status())
          assert.same(plain[3].trace, p.trace)
          assert.equal(plain[3].expanded, p.expanded)
          local best = smallest(graph_reached(w, oo, s, p.trace), h)
          assert.equal(best, p.nodes[#p.nodes], ("seed %d: %s"):format(seed, reason))
          assert_graph_chain(w, oo, p, s, best)
        end
      end
    end
    for _, reason in ipairs({ "max_expansions", "max_cost", "unreachable" }) do
      assert.is_true(reasons[reason], reason)
    end
  end)

  it("on grids: the same with the built-in heuristic, for every reason and diagonal rule #pure", function()
    local reasons, rules = {}, {}
    for seed = 1, 40 do
      local world = random_world(seed + 200)
      local r = world.r
      local sx, sy, gx, gy = r(1, world.w), r(1, world.h), r(1, world.w), r(1, world.h)
      local gid = (gy - 1) * world.w + gx
      local o = { trace = true }
      local h = function(id)
        local x, y = (id - 1) % world.w + 1, math.floor((id - 1) / world.w) + 1
        if world.rule == "never" then return math.abs(x - gx) + math.abs(y - gy) end
        return octile(x, y, gx, gy)
      end
      local opt = grid_dijkstra(world, o, sx, sy)[gid]
      for _, v in ipairs({ { max_expansions = r(1, 6) }, { max_cost = opt < math.huge and opt / 2 or 2 }, {} }) do
        local oo = with(o, v)
        local plain = pack(world.g:find_path(sx, sy, gx, gy, oo))
        oo.partial = true
        local res = pack(world.g:find_path(sx, sy, gx, gy, oo))
        local p = res[1]
        if not passable(world, o, sx, sy) then
          assert.same(plain, res) -- nothing reached: no partial path
        elseif not passable(world, o, gx, gy) then -- luacheck: ignore 542
          -- (a blocked goal: nothing is searched, so no partial path is promised)
        elseif plain[1] then
          assert.same(plain[1], p)
        else
          reasons[plain[2]] = true
          rules[world.rule] = true
          assert.is_true(p.partial)
          assert.equal(plain[2], p.reason)
          local best, bh, unique = smallest(grid_reached(world, oo, sx, sy, p.trace), h)
          local last = p.nodes[#p.nodes]
          assert.equal(bh, h(last), ("seed %d: %s"):format(seed, plain[2]))
          if unique then assert.equal(best, last) end
          local x, y = world.g:xy(last)
          assert_grid_chain(world, oo, p, sx, sy, x, y)
        end
      end
    end
    for _, reason in ipairs({ "max_expansions", "max_cost", "unreachable" }) do
      assert.is_true(reasons[reason], reason)
    end
    for _, rule in ipairs(RULES) do assert.is_true(rules[rule], rule) end
  end)

  it("with the zero heuristic are the start alone; the README corridor #pure", function()
    local g = astar.grid(100, 1)
    -- A*: the corridor cell by cell (jump point search jumps it whole)
    local p = g:find_path(1, 1, 100, 1, { max_expansions = 10, partial = true, heuristic = "zero",
      algorithm = "astar" })
    assert.same({ 1 }, p.nodes)
    assert.equal(0, p.cost)
    assert.is_true(p.partial)
    p = g:find_path(1, 1, 100, 1, { max_expansions = 10, partial = true, algorithm = "astar" })
    assert.is_true(p.partial)
    assert.equal("max_expansions", p.reason)
    assert.equal(11, #p.nodes)
    assert.equal(10, p.cost)
    assert.equal(10, p.expanded)
    p = g:find_path(1, 1, 100, 1, { max_cost = 20.5, partial = true })
    assert.equal("max_cost", p.reason)
    assert.equal(20, p.cost)
    g:set_blocked(50, 1, true)
    p = g:find_path(1, 1, 100, 1, { partial = true })
    assert.equal("unreachable", p.reason)
    assert.same({ 49, 1 }, p.xy[#p.xy])
    assert.equal(48, p.cost)
    -- partial = false is the default
    assert.same(pack(g:find_path(1, 1, 100, 1)), pack(g:find_path(1, 1, 100, 1, { partial = false })))
    -- a blocked start reaches nothing
    local none, why = g:find_path(50, 1, 100, 1, { partial = true })
    assert.is_nil(none)
    assert.equal("unreachable", why)
  end)
end)
