-- The pure-Lua backend (lua/astar/pure/) against the native module, side by
-- side in one process: random grids of every diagonal rule, with costs,
-- tags, fields and callbacks; every search option the pure backend serves;
-- distance fields, line of sight, components, and the error messages.
-- Paths may differ among equally short routes: costs and statuses must be
-- equal, and every path a legal walk whose steps sum to its cost.  (The
-- specs tagged #pure run against the pure backend alone: make test-pure.)

-- busted reads a spec's globals through its environment, a walk up the
-- context tree on every read: the hot ones as locals (spec/helpers.lua)
local assert, math, pairs, select, tostring = assert, math, pairs, select, tostring
local native_ok, native = pcall(require, "astar.core")
local pure = require("astar.pure.core")

local RULES = { "never", "no_corner_cutting", "one_obstacle", "always" }
local D = pure.DIAGONAL

-- a deterministic generator (the same grids on every Lua)
-- the same sequence on every Lua (Park and Miller's generator: every
-- product below 2^53, exact in floats and integers alike)
local function rng(seed)
  local s = seed % 2147483646 + 1
  return function(n)
    s = (s * 16807) % 2147483647
    return s % n + 1
  end
end

-- the same random grid built on both backends
local function twin(r, opts)
  local w, h = r(24), r(24)
  local rule = RULES[r(4)]
  local gs = {}
  local cells = {}
  for _ = 1, h do
    for _ = 1, w do
      local c = { blocked = r(100) <= (opts.density or 25) }
      if opts.costs and r(4) == 1 then c.cost = r(4) end
      if opts.tags and r(5) == 1 then c.tag = ({ "mud", "lava", "road" })[r(3)] end
      cells[#cells + 1] = c
    end
  end
  for i, core in ipairs({ native, pure }) do
    local g = core.grid(w, h, { diagonal = rule })
    local k = 0
    for y = 1, h do
      for x = 1, w do
        k = k + 1
        local c = cells[k]
        if c.blocked then g:set_blocked(x, y, true) end
        if c.cost then g:set_cost(x, y, c.cost) end
        if c.tag then g:set_tag(x, y, c.tag) end
      end
    end
    gs[i] = g
  end
  return gs[1], gs[2], w, h, rule
end

-- a legal walk on grid g (pure) under the query's filter, summing its steps
local function walk_cost(g, path, o)
  local w = select(1, g:size())
  local rule = g:diagonal()
  local function xy(id) return (id - 1) % w + 1, math.floor((id - 1) / w) + 1 end
  local function shut(x, y)
    if g:is_blocked(x, y) then return true end
    if o.forbid and o.forbid:get(x, y) ~= 0 then return true end
    local t = g:get_tag(x, y)
    return t ~= nil and o.costs ~= nil and o.costs[t] == false
  end
  local sum = 0
  local nodes = path.nodes
  local x0, y0 = xy(nodes[1])
  assert(not shut(x0, y0), "the path starts on an impassable cell")
  for i = 2, #nodes do
    local x1, y1 = xy(nodes[i])
    local dx, dy = x1 - x0, y1 - y0
    assert(math.abs(dx) <= 1 and math.abs(dy) <= 1 and (dx ~= 0 or dy ~= 0), "not a neighbour")
    assert(not shut(x1, y1), "enters an impassable cell")
    local len = 1
    if dx ~= 0 and dy ~= 0 then
      assert(rule ~= "never", "a diagonal step on a never grid")
      local a, b = not shut(x0 + dx, y0), not shut(x0, y0 + dy)
      if rule == "no_corner_cutting" then assert(a and b, "cuts a corner") end
      if rule == "one_obstacle" then assert(a or b, "passes two obstacles") end
      len = D
    end
    local c = len * g:get_cost(x1, y1)
    local t = g:get_tag(x1, y1)
    if t and o.costs and o.costs[t] then c = c * o.costs[t] end
    if o.penalty then c = c + o.penalty:get(x1, y1) * (o.penalty_scale or 1) end
    if o.cost then c = o.cost(x0, y0, x1, y1, c) end
    sum = sum + c
    x0, y0 = x1, y1
  end
  return sum
end

-- a copy of opts for grid g's backend (fields rebuilt on that backend)
local function for_backend(core, g, opts, fields)
  local o = {}
  for k, v in pairs(opts) do o[k] = v end
  for name, values in pairs(fields) do
    local f = core.field(g)
    for _, v in ipairs(values) do f:set(v[1], v[2], v[3]) end
    o[name] = f
  end
  return o
end

local function close(a, b)
  return a == b or math.abs(a - b) <= 1e-9 * math.max(1, math.abs(a))
end

describe("the pure-Lua backend's version #pure", function()
  it("is the facade's (lua/astar/pure/core.lua states it: bump it with the others)", function()
    local facade = require("astar")
    assert.equal(facade.version, pure.version)
    assert.equal(facade._VERSION, pure._VERSION)
  end)
end)

describe("the pure-Lua backend against the native module", function()
  if not native_ok then
    it("needs the native module built (make)", function() pending("astar.core not loadable") end)
    return
  end

  local function sweep(seed, rounds, make_opts, gopts)
    local r = rng(seed)
    local compared, found = 0, 0
    for _ = 1, rounds do
      local gn, gp, w, h = twin(r, gopts)
      for _ = 1, 6 do
        local x1, y1, x2, y2 = r(w), r(h), r(w), r(h)
        local opts, fields = make_opts(r, w, h)
        local on = for_backend(native, gn, opts, fields)
        local op = for_backend(pure, gp, opts, fields)
        local pn, wn = gn:find_path(x1, y1, x2, y2, on)
        local pp, wp = gp:find_path(x1, y1, x2, y2, op)
        compared = compared + 1
        local where = ("seed %d, %s grid %dx%d, (%d, %d) -> (%d, %d)"):format(seed, gn:diagonal(), w, h, x1, y1, x2, y2)
        assert.equal(wn, wp, where)
        assert.equal(pn == nil, pp == nil, where)
        if pn then
          found = found + 1
          assert(close(pn.cost, pp.cost), ("%s: cost %.17g native, %.17g pure"):format(where, pn.cost, pp.cost))
          assert(close(pp.cost, walk_cost(gp, pp, op)), where .. ": the steps do not sum to the cost")
          assert(close(pn.length, pp.length) or pn.partial, where .. ": length")
          assert.equal(pp.nodes[1], gp:id(x1, y1))
          if not pp.partial then assert.equal(pp.nodes[#pp.nodes], gp:id(x2, y2)) end
          assert.equal(pn.partial, pp.partial)
          assert.equal(pn.reason, pp.reason)
        end
      end
    end
    return compared, found
  end

  it("default options: jump point search where it applies, A* elsewhere", function()
    local n, found = sweep(1, 60, function() return {}, {} end, {})
    assert(n == 360 and found > 150)
  end)

  it("jump point search on larger grids, its jump tables kept current by set_blocked between queries", function()
    local r = rng(8)
    local n = 0
    for _ = 1, 60 do
      local w, h = r(64), r(64)
      local rule = ({ "never", "no_corner_cutting" })[r(2)]
      local density = r(45) - 1
      local gn, gp = native.grid(w, h, { diagonal = rule }), pure.grid(w, h, { diagonal = rule })
      for y = 1, h do
        for x = 1, w do
          if r(100) <= density then gn:set_blocked(x, y, true); gp:set_blocked(x, y, true) end
        end
      end
      for q = 1, 8 do
        if q % 3 == 0 then
          local bx, by, b = r(w), r(h), r(2) == 1
          gn:set_blocked(bx, by, b); gp:set_blocked(bx, by, b)
        end
        local x1, y1, x2, y2 = r(w), r(h), r(w), r(h)
        local pn = gn:find_path(x1, y1, x2, y2)
        local pp = gp:find_path(x1, y1, x2, y2, { algorithm = "jps" })
        local where = ("%s %dx%d (%d, %d) -> (%d, %d)"):format(rule, w, h, x1, y1, x2, y2)
        assert.equal(pn == nil, pp == nil, where)
        if pn then
          assert(close(pn.cost, pp.cost), where)
          assert(close(pp.cost, walk_cost(gp, pp, {})), where .. ": not a legal walk of that cost")
        end
        n = n + 1
      end
    end
    assert.equal(480, n)
  end)

  it("A*, every built-in heuristic, Lua heuristics, weights, stop modes, tie breaks", function()
    local heuristics = { "zero", "euclidean", "manhattan", "octile", "chebyshev", "bisector", "full_bisector" }
    local n, found = sweep(2, 80, function(r)
      local o = { algorithm = ({ "astar", "auto" })[r(2)], tie_break = ({ "high_g", "fifo" })[r(2)] }
      local k = r(9)
      if k <= 7 then o.heuristic = heuristics[k]
      elseif k == 8 then o.heuristic = function(x, y, gx, gy) return math.abs(x - gx) + math.abs(y - gy) end
      else o.heuristic = function() return 0 end end
      -- inadmissible estimates, weights: the guaranteed optimum
      if k == 3 or k == 7 or k == 8 or r(3) == 1 then o.stop = "optimal" end
      if r(4) == 1 then o.weight = r(3) * 0.5; o.stop = "optimal"; o.algorithm = "astar" end
      return o, {}
    end, {})
    assert(n == 480 and found > 200)
  end)

  it("costs, tags (factors and false), penalty and forbid fields, cost callbacks", function()
    local n, found = sweep(3, 80, function(r, w, h)
      local o, fields = {}, {}
      if r(2) == 1 then o.costs = { mud = r(3), lava = r(2) == 1 and false or 5, road = 1 } end
      if r(3) == 1 then
        local list = {}
        for _ = 1, r(20) do list[#list + 1] = { r(w), r(h), r(5) } end
        fields.penalty = list
        if r(2) == 1 then o.penalty_scale = 0.5 * r(4) end
      end
      if r(3) == 1 then
        local list = {}
        for _ = 1, r(20) do list[#list + 1] = { r(w), r(h), 1 } end
        fields.forbid = list
      end
      if r(3) == 1 then
        o.cost = function(_, y1, x2, y2, c)
          if (x2 * 7 + y2 * 3) % 11 == 0 then return false end
          return y2 > y1 and 2 * c or c
        end
      end
      if r(2) == 1 then o.algorithm = "astar" end
      return o, fields
    end, { costs = true, tags = true })
    assert(n == 480 and found > 150)
  end)

  it("budgets and partial paths: the same statuses and reasons", function()
    local n, found = sweep(4, 60, function(r)
      local o = {}
      if r(2) == 1 then o.max_cost = r(30) end
      if r(2) == 1 then o.partial = true end
      if r(3) == 1 then o.max_expansions = 100000 end
      return o, {}
    end, { density = 35 })
    assert(n == 360 and found > 100)
  end)

  it("distance fields: the same value on every cell, next_step walks down them", function()
    local r = rng(5)
    for round = 1, 40 do
      local gn, gp, w, h = twin(r, { costs = round % 2 == 0, tags = true })
      local sources = {}
      for i = 1, r(3) do sources[i] = { r(w), r(h) } end
      local opts = { direction = ({ "to_sources", "from_sources" })[r(2)] }
      if r(2) == 1 then opts.costs = { lava = false, mud = 3 } end
      if r(3) == 1 then opts.max_cost = r(20) end
      if r(3) == 1 then opts.cost = function(_, _, _, y2, c) return y2 % 2 == 0 and c + 1 or c end end
      local fn, fp = gn:distances(sources, opts), gp:distances(sources, opts)
      for y = 1, h do
        for x = 1, w do
          local a, b = fn:get(x, y), fp:get(x, y)
          assert(close(a, b), ("round %d cell (%d, %d): %s native, %s pure"):format(round, x, y, a, b))
          if b < math.huge and b > 0 then
            local nx, ny = fp:next_step(x, y)
            assert(nx and fp:get(nx, ny) <= b, "next_step leads downhill")
          end
        end
      end
    end
  end)

  it("line_of_sight and connected agree on every pair of cells", function()
    local r = rng(6)
    for _ = 1, 8 do
      local gn, gp, w, h = twin(r, { density = 20 })
      for y1 = 1, h, 3 do
        for x1 = 1, w, 3 do
          for y2 = 1, h do
            for x2 = 1, w do
              assert.equal(gn:line_of_sight(x1, y1, x2, y2), gp:line_of_sight(x1, y1, x2, y2))
              assert.equal(gn:connected(x1, y1, x2, y2), gp:connected(x1, y1, x2, y2))
            end
          end
        end
      end
    end
  end)

  -- on_change = "repair" (the default): the native module repairs, the
  -- pure-Lua backend begins again (counted in restarts); the same answers.
  -- on_change = "restart": both begin again, the same number of times.
  it("time-sliced queries give find_path's answer, and restart when the map changes", function()
    local r = rng(7)
    for i = 1, 60 do
      local gn, gp, w, h = twin(r, {})
      local x1, y1, x2, y2 = r(w), r(h), r(w), r(h)
      local oc = i % 2 == 0 and { on_change = "restart" } or nil
      local qn, qp = gn:query(x1, y1, x2, y2, oc), gp:query(x1, y1, x2, y2, oc)
      local sn, sp = qn:step(2), qp:step(2)
      local both = sn == "searching" and sp == "searching"
      local bx, by = r(w), r(h)
      -- the edit only while both search (one that ended answered the map before it)
      if both and not (bx == x1 and by == y1) then gn:set_blocked(bx, by, true); gp:set_blocked(bx, by, true) end
      repeat until qn:step(3) ~= "searching"
      repeat until qp:step(3) ~= "searching"
      assert.equal(qn:status(), qp:status())
      local pn, pp = qn:result(), qp:result()
      assert.equal(pn == nil, pp == nil)
      if pn then
        assert(close(pn.cost, pp.cost))
        if both and oc then assert.equal(pn.restarts, pp.restarts) end
        if both and not oc then
          assert.is_nil(pp.repairs)
          assert.equal((pn.restarts or 0) + (pn.repairs or 0) > 0, (pp.restarts or 0) > 0)
        end
      end
    end
  end)

  it("raises the native module's messages", function()
    local calls = {
      function(c) return c.grid(0, 1) end,
      function(c) return c.grid(3, 3, { diagonal = "x" }) end,
      function(c) return c.grid(3, 3, { origin = { 0 / 0, 0 } }) end,
      function(c) return c.grid(3, 3, { cell_size = 0 }) end,
      function(c) return c.grid(3, 3, { bogus = 1 }) end,
      function(c) return c.grid_from_string("a") end,
      function(c) return c.grid_from_string("..\n.") end,
      function(c) return c.grid_from_string("") end,
      function(c) return c.grid_from_string("ab", { a = 5, b = { cost = -1 } }) end,
      function(c) return c.grid_from_string("ab", { a = 5, b = { bogus = 1 } }) end,
      function(c) return c.grid_from_string("ab", { a = 5, b = {} , [3] = 1 }) end,
      function(c) return c.grid(4, 4):find_path(0, 1, 4, 4) end,
      function(c) return c.grid(4, 4):find_path(1, 1.5, 4, 4) end,
      function(c) return c.grid(4, 4):find_path("a", 1, 4, 4) end,
      function(c) return c.grid(4, 4):find_path(1, 1, 4, 4, { huristic = 1 }) end,
      function(c) return c.grid(4, 4):find_path(1, 1, 4, 4, { heuristic = "hex" }) end,
      function(c) return c.grid(4, 4):find_path(1, 1, 4, 4, { weight = -1 }) end,
      function(c) return c.grid(4, 4):find_path(1, 1, 4, 4, { stop = "now" }) end,
      function(c) return c.grid(4, 4):find_path(1, 1, 4, 4, { costs = { a = "x" } }) end,
      function(c) return c.grid(4, 4):find_path(1, 1, 4, 4, { max_expansions = 0 }) end,
      function(c) return c.grid(4, 4):find_path(1, 1, 4, 4, { max_cost = -1 }) end,
      function(c) return c.grid(4, 4):find_path(1, 1, 4, 4, { trace = 1 }) end,
      function(c) return c.grid(4, 4):find_path(1, 1, 4, 4, { algorithm = "jps", weight = 2 }) end,
      function(c) return c.grid(4, 4, { diagonal = "always" }):find_path(1, 1, 4, 4, { algorithm = "jps" }) end,
      function(c) return c.grid(4, 4):find_path(1, 1, 4, 4, { direction = "to_sources" }) end,
      function(c) return c.grid(4, 4):find_path(1, 1, 4, 4, { on_change = "fail" }) end,
      function(c) return c.grid(4, 4):find_path(1, 1, 4, 4, { penalty = 3 }) end,
      function(c) return c.grid(4, 4):find_path(1, 1, 4, 4, { penalty = c.field(c.grid(2, 2)) }) end,
      function(c)
        return c.grid(4, 4):find_path(1, 1, 4, 4, { algorithm = "astar", heuristic = function() return -1 end })
      end,
      function(c) return c.grid(4, 4):find_path(1, 1, 4, 4, { cost = function() return "x" end }) end,
      function(c) return c.grid(4, 4):distances({}) end,
      function(c) return c.grid(4, 4):distances({ { 0, 1 } }) end,
      function(c) return c.grid(4, 4):distances(5) end,
      function(c) return c.grid(4, 4):distances({ { 1, 1 } }, { partial = true }) end,
      function(c) return c.grid(4, 4):query(1, 1, 4, 4):step(0) end,
      function(c) return c.grid(4, 4):set_cost(1, 1, -1) end,
      function(c) return c.grid(4, 4):set_tag(1, 1, 5) end,
      function(c) return c.grid(4, 4):set_blocked(1, 1, 1) end,
      function(c) return c.grid(4, 4):xy(17) end,
      function(c) return c.grid(4, 4):line_of_sight(1, 1, 4, 4, 0) end,
      function(c) return c.grid(4, 4):to_cell(0 / 0, 1) end,
      function(c) return c.field(c.grid(4, 4), 0 / 0) end,
      function(c) return c.field(c.grid(4, 4)):next_step(1, 1) end,
      function(c) return c.field(c.grid(4, 4)):set(5, 1, 1) end,
      function(c) local g = c.grid(4, 4); g:close(); return g:find_path(1, 1, 2, 2) end,
      function(c)
        local g = c.grid(4, 4)
        return g:find_path(1, 1, 4, 4, { algorithm = "astar", heuristic = function() g:set_blocked(2, 2, true) return 0 end })
      end,
      function(c)
        local g = c.grid(4, 4)
        local f = g:distances({ { 1, 1 } })
        g:set_blocked(3, 3, true)
        return f:next_step(4, 4)
      end,
      function(c) return c.register_heuristic("octile", function() return 0 end) end,
    }
    local function strip(msg) return (tostring(msg):gsub("^[^%s]*:%d+: ", "")) end
    for i, f in ipairs(calls) do
      local okn, en = pcall(f, native)
      local okp, ep = pcall(f, pure)
      assert.is_false(okn, "call " .. i .. " should fail on the native module")
      assert.is_false(okp, "call " .. i .. " should fail on the pure backend")
      assert.equal(strip(en), strip(ep), "call " .. i)
    end
  end)

  it("a callback's error reaches the caller with its value, and the grid stays usable", function()
    local g = pure.grid(8, 8)
    local boom = {}
    local ok, err = pcall(g.find_path, g, 1, 1, 8, 8, { algorithm = "astar", heuristic = function() error(boom) end })
    assert(not ok and err == boom)
    assert.equal(7 * D, g:find_path(1, 1, 8, 8).cost)
    g:set_blocked(2, 2, true) -- unlocked again
  end)
end)

-- field:version() and field:close() (__close), on the pure backend and,
-- when it loads, on the native module: the same answers and errors
describe("fields: version and close, on both backends #pure", function()
  local cores = { { "pure", pure } }
  if native_ok then cores[2] = { "native", native } end
  -- the error without its position, which must be there (the caller's line)
  local function raised(fn)
    local ok, err = pcall(fn)
    assert(not ok, "expected an error")
    assert(tostring(err):find("^[^\n]-:%d+: "), "no position in: " .. tostring(err))
    return (tostring(err):gsub("^[^\n]-:%d+: ", "", 1))
  end
  for _, c in ipairs(cores) do
    local name, core = c[1], c[2]
    it(name .. ": version() changes with the values, not with writes that change nothing", function()
      local g = core.grid(6, 4)
      local f = core.field(g, 1)
      local v0 = f:version()
      assert.equal("number", type(v0))
      f:set(2, 2, 1)
      assert.equal(v0, f:version())
      f:set(2, 2, 3)
      local v1 = f:version()
      assert.are_not.equal(v0, v1)
      f:fill(3)
      assert.are_not.equal(v1, f:version())
      local d = g:distances({ { 1, 1 } })
      assert.equal("number", type(d:version()))
    end)
    it(name .. ": close() is idempotent and every later use raises", function()
      local g = core.grid(6, 4)
      local f = core.field(g, 1)
      assert.equal("function", type(getmetatable(f).__close))
      f:close()
      f:close()
      assert.equal("astar.Field (closed)", tostring(f))
      assert.equal("attempt to use a closed field", raised(function() local v = f:get(1, 1) return v end))
      assert.equal("attempt to use a closed field", raised(function() f:set(1, 1, 2) end))
      assert.equal("attempt to use a closed field", raised(function() local v = f:version() return v end))
      assert.equal("attempt to use a closed field",
        raised(function() local p = g:find_path(1, 1, 6, 4, { penalty = f }) return p end))
      assert.equal("attempt to use a closed field",
        raised(function() local p = g:find_path(1, 1, 6, 4, { forbid = f }) return p end))
      local d = g:distances({ { 1, 1 } })
      getmetatable(d).__close(d)
      assert.equal("attempt to use a closed field", raised(function() local s = d:next_step(3, 3) return s end))
      -- the grid goes on
      assert.equal(3 * core.DIAGONAL + 2, g:find_path(1, 1, 6, 4).cost)
    end)
  end
end)

-- every method of the native grid is on the pure backend's grid: served,
-- or raising "<name> needs the native module" by name
describe("the pure-Lua backend's grid methods #pure", function()
  it("precompute_jumps raises by name; has_jumps answers false", function()
    local g = pure.grid(8, 8)
    local ok, err = pcall(function() g:precompute_jumps() end)
    assert.is_false(ok)
    assert.truthy(tostring(err):find("grid:precompute_jumps needs the native module", 1, true))
    assert.is_false(g:has_jumps())
    assert.equal(7 * pure.DIAGONAL, g:find_path(1, 1, 8, 8).cost)
  end)
end)

describe("the pure-Lua backend's grid against the native module's", function()
  it("has every method the native module's grid has", function()
    if not native_ok then pending("astar.core not loadable") return end
    local gn, gp = native.grid(4, 4), pure.grid(4, 4)
    local idx = getmetatable(gn).__index
    if type(idx) ~= "table" then idx = getmetatable(gn) end
    local missing = {}
    for name, v in pairs(idx) do
      if type(v) == "function" and not name:find("^_") and gp[name] == nil then missing[#missing + 1] = name end
    end
    table.sort(missing)
    assert.same({}, missing)
  end)
end)

-- the grid's jump table and open 2 x 2 blocks (lua/astar/pure/grid.lua),
-- kept by every edit, against a fresh build of the same map
describe("the pure-Lua backend's jump table after edits #pure", function()
  it("equals a fresh build after single and bulk edits", function()
    local G = require("astar.pure.grid")
    local r = rng(20)
    for _ = 1, 8 do
      local w, h = r(40), r(40)
      local g = pure.grid(w, h)
      local dens = r(40)
      for y = 1, h do
        for x = 1, w do
          if r(100) <= dens then g:set_blocked(x, y, true) end
        end
      end
      G.jump_tables(g)
      for e = 1, 20 do
        if r(5) == 1 then
          local x1, y1 = r(w), r(h)
          g:set_blocked_rect(x1, y1, math.min(w, x1 + r(4) - 1), math.min(h, y1 + r(4) - 1), r(2) == 1)
        else
          local x, y = r(w), r(h)
          g:set_blocked(x, y, not g:is_blocked(x, y))
        end
        local f = pure.grid(w, h)
        for y = 1, h do
          for x = 1, w do
            if g:is_blocked(x, y) then f:set_blocked(x, y, true) end
          end
        end
        local JA, BA = G.jump_tables(g)
        local JB, BB = G.jump_tables(f)
        local pw = w + 2
        for y = 1, h do
          for x = 1, w do
            local p = y * pw + x + 1
            if not g:is_blocked(x, y) then
              for d = 1, 4 do
                assert(JA[4 * p - 4 + d] == JB[4 * p - 4 + d],
                  ("edit %d: entry %d of (%d, %d): %s, fresh %s"):format(e, d, x, y,
                    tostring(JA[4 * p - 4 + d]), tostring(JB[4 * p - 4 + d])))
              end
            end
          end
        end
        for t = 1, (h + 2) * pw - pw - 1 do
          assert(BA[t] == BB[t], ("edit %d: block %d: %s, fresh %s"):format(e, t, tostring(BA[t]), tostring(BB[t])))
        end
      end
    end
  end)
end)

describe("the pure-Lua backend's queries #pure", function()
  it("hold memory in proportion to the cells they touch, not to the grid", function()
    local g = pure.grid(600, 600)
    -- walls with gaps at alternate ends: the queries below take many expansions
    for x = 8, 592, 8 do
      if x % 16 == 0 then g:set_blocked_rect(x, 1, x, 599, true) else g:set_blocked_rect(x, 2, x, 600, true) end
    end
    assert.truthy(g:find_path(1, 1, 10, 600)) -- the grid's own search state, reused
    collectgarbage()
    collectgarbage()
    local before = collectgarbage("count")
    local qs = {}
    for i = 1, 10 do
      qs[i] = g:query(1, i, 590, 500 + i)
      assert.equal("searching", qs[i]:step(20))
    end
    collectgarbage()
    collectgarbage()
    local held = collectgarbage("count") - before
    -- 360,000 cells: a whole-grid array a query would be megabytes
    assert(held < 2048, ("10 queries of 20 expansions hold %.0f KB"):format(held))
    qs[1]:step()
    assert.equal("found", qs[1]:status())
  end)
end)
