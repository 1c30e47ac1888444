-- astar.batch: many find_path requests on OS threads.  Every answer equals
-- find_path's (the path table field by field, stats included), with every
-- option that runs in C, on any number of threads; bad requests, options and
-- thread counts raise clear errors; Lua callbacks are refused.
local astar = require("astar")
local worlds = require("worlds")
local error_of = require("helpers").error_of
local unpack = table.unpack or unpack
local LUA_H = "bad argument #3 to 'batch' (heuristic must be a built-in name or a heuristic object "
  .. "(a Lua function cannot run on other threads))"

-- The find_path answer as batch gives it: path or false, and the reason.
local function expected(g, req, opts)
  local p, reason = g:find_path(unpack(req))
  if opts then p, reason = g:find_path(req[1], req[2], req[3], req[4], opts) end
  if p then return p, p.reason or "found" end
  return false, reason
end

local function compare(g, reqs, opts, paths, reasons, label)
  assert.equal(#reqs, #paths, label)
  assert.equal(#reqs, #reasons, label)
  for i, req in ipairs(reqs) do
    local want, why
    if #req == 4 then
      want, why = expected(g, req, opts)
    else
      want, why = g:find_path(req[1], req[2], opts)
      if want then why = want.reason or "found" else want = false end
    end
    assert.same(want, paths[i], label .. " request " .. i)
    assert.equal(why, reasons[i], label .. " request " .. i)
    if want and #req == 4 then assert.same(want.xy, paths[i].xy) end
  end
end

describe("astar.batch", function()
  it("answers every grid request as find_path does, on 1 to 7 threads, with C options", function()
    local optsets = 0
    for seed = 1, 12 do
      local world = worlds.random_grid(seed, { width = { 10, 30 }, height = { 10, 30 }, density = 0.3,
        costed = 0.2, costs = { 0.5, 2, 3 }, tagged = 0.1, tags = { "mud" } })
      local g, r = world.g, world.r
      local reqs = {}
      for i = 1, 40 do reqs[i] = { r(1, world.w), r(1, world.h), r(1, world.w), r(1, world.h) } end
      local sets = {
        nil,
        { heuristic = "zero", costs = { mud = 4 } },
        { weight = 1.5, tie_break = "fifo", stop = "optimal" },
        { max_expansions = 20, partial = true },
        { penalty = worlds.random_field(world, function() return r(0, 2) end), penalty_scale = 0.5,
          forbid = worlds.random_field(world, function() return r() < 0.05 and 1 or 0 end), max_cost = 30 },
        { heuristic = astar.landmarks(g, 3), trace = true, visited = true, stop = "first_hit" },
        { size = 2, partial = seed % 2 == 0 },  -- the clearance layer is built before the threads
        { smooth = true, heuristic = "euclidean" },
      }
      for s = 1, 8 do
        local opts = sets[s]
        local threads = ({ 1, 2, 3, 7 })[(seed + s) % 4 + 1]
        local bopts = { threads = threads }
        for k, v in pairs(opts or {}) do bopts[k] = v end
        local paths, reasons = astar.batch(g, reqs, bopts)
        compare(g, reqs, opts, paths, reasons, ("seed %d set %d threads %d"):format(seed, s, threads))
        optsets = optsets + 1
      end
      assert.equal(#reqs, #astar.batch(g, reqs)) -- the default thread count
    end
    assert.equal(96, optsets)
  end)

  it("answers graph requests as find_path does", function()
    for seed = 1, 8 do
      local world = worlds.random_graph(seed, 40, 120, { cost = function(r) return r(1, 9) end,
        tagged = 0.2, tags = { "door" }, disabled = 0.05 })
      local g, r = world.g, world.r
      local reqs = {}
      for i = 1, 30 do reqs[i] = { r(1, 40), r(1, 40) } end
      for _, opts in ipairs({ {}, { costs = { door = false }, heuristic = "zero" }, { partial = true, max_expansions = 5 } }) do
        local bopts = { threads = 2 }
        for k, v in pairs(opts) do bopts[k] = v end
        local paths, reasons = astar.batch(g, reqs, bopts)
        compare(g, reqs, opts, paths, reasons, "graph seed " .. seed)
      end
    end
  end)

  it("answers hex grid requests as find_path does", function()
    local h = astar.hex(20, 15, { layout = "even_q" })
    for y = 2, 14 do h:set_blocked(10, y, true) end
    local reqs = {}
    for i = 1, 15 do reqs[i] = { 1, i, 20, 16 - i } end
    reqs[16] = { 1, 1, 10, 5 }
    for _, opts in ipairs({ {}, { heuristic = "zero", trace = true } }) do
      local bopts = { threads = 2 }
      for k, v in pairs(opts) do bopts[k] = v end
      local paths, reasons = astar.batch(h, reqs, bopts)
      compare(h, reqs, opts, paths, reasons, "hex")
    end
  end)

  it("takes an empty list, and options through a metatable", function()
    local g = astar.grid(5, 5)
    local paths, reasons = astar.batch(g, {})
    assert.same({}, paths)
    assert.same({}, reasons)
    local opts = setmetatable({ threads = 2 }, { __index = { heuristic = "zero" } })
    paths = astar.batch(g, { { 1, 1, 5, 5 } }, opts)
    assert.same(g:find_path(1, 1, 5, 5, { heuristic = "zero" }), paths[1])
    -- the same request many times over, more threads than requests
    local reqs = {}
    for i = 1, 5 do reqs[i] = { 1, 1, 5, i } end
    paths = astar.batch(g, reqs, { threads = 64 })
    for i = 1, 5 do assert.same(g:find_path(1, 1, 5, i), paths[i]) end
  end)

  it("refuses bad requests, bad options and Lua callbacks with clear errors", function()
    local g = astar.grid(5, 3)
    local gr = astar.graph()
    for i = 1, 4 do gr:add_node(i, 0) end
    local cases = {
      { g, 5, nil, "bad argument #2 to 'batch' (table (a list of requests) expected, got number)" },
      { g, { 5 }, nil, "bad argument #2 to 'batch' (requests[1] must be a table {x1, y1, x2, y2}, got 5)" },
      { g, { { 1, 1, 5, 3 }, "x" }, nil,
        "bad argument #2 to 'batch' (requests[2] must be a table {x1, y1, x2, y2}, got \"x\")" },
      { g, { { 1, 1, 6, 3 } }, nil, "bad argument #2 to 'batch' (requests[1][3] must be an x in 1..5, got 6)" },
      { g, { { 1, 0, 5, 3 } }, nil, "bad argument #2 to 'batch' (requests[1][2] must be a y in 1..3, got 0)" },
      { g, { { 1, 1, 5 } }, nil, "bad argument #2 to 'batch' (requests[1][4] must be a y in 1..3, got nil)" },
      { g, { { 1, 1.5, 5, 3 } }, nil, "bad argument #2 to 'batch' (requests[1][2] must be a y in 1..3, got 1.5)" },
      { g, { { "1", 1, 5, 3 } }, nil, "bad argument #2 to 'batch' (requests[1][1] must be an x in 1..5, got \"1\")" },
      { gr, { { 1, 5 } }, nil, "bad argument #2 to 'batch' (requests[1][2] must be a node id in 1..4, got 5)" },
      { gr, { { 1 } }, nil, "bad argument #2 to 'batch' (requests[1][2] must be a node id in 1..4, got nil)" },
      { gr, { 1, 2 }, nil, "bad argument #2 to 'batch' (requests[1] must be a table {start, goal}, got 1)" },
      { g, {}, 5, "bad argument #3 to 'batch' (table expected, got number)" },
      { g, {}, { threads = 0 }, "bad argument #3 to 'batch' (threads must be an integer >= 1, got 0)" },
      { g, {}, { threads = -2 }, "bad argument #3 to 'batch' (threads must be an integer >= 1, got -2)" },
      { g, {}, { threads = 1.5 }, "bad argument #3 to 'batch' (threads must be an integer >= 1, got 1.5)" },
      { g, {}, { threads = "2" }, "bad argument #3 to 'batch' (threads must be an integer >= 1, got \"2\")" },
      { g, {}, { threads = 0 / 0 }, "bad argument #3 to 'batch' (threads must be an integer >= 1, got nan)" },
      { g, {}, { threads = true }, "bad argument #3 to 'batch' (threads must be an integer >= 1, got true)" },
      { g, {}, { bogus = 1 }, "bad argument #3 to 'batch' (unknown option \"bogus\")" },
      { g, {}, { weight = -1 }, "bad argument #3 to 'batch' (weight must be a finite number >= 0, got -1)" },
      { g, {}, { heuristic = function() return 0 end }, LUA_H },
      { g, {}, { cost = function(_, _, _, _, c) return c end },
        "bad argument #3 to 'batch' (cost callbacks cannot run on other threads (use costs, penalty or forbid))" },
      { g, {}, { any_angle = true },
        "bad argument #3 to 'batch' (any_angle is not available in batches (use smooth, or find_path))" },
      { g, {}, { penalty = astar.field(astar.grid(2, 2)) },
        "bad argument #3 to 'batch' (penalty field is 2x2 but the grid is 5x3)" },
    }
    for i, c in ipairs(cases) do
      assert.equal(c[4], error_of(astar.batch, c[1], c[2], c[3]), "case " .. i)
    end
    assert.equal("bad argument #1 to 'batch' (astar.Graph, astar.Grid or astar.Hex expected, got number)",
      error_of(astar.batch, 5, {}))
    -- a registered Lua heuristic, by name: refused too
    astar.register_heuristic("batch_spec_lua_h", function() return 0 end)
    assert.equal(LUA_H, error_of(astar.batch, g, {}, { heuristic = "batch_spec_lua_h" }))
    -- a closed topology
    local c = astar.grid(3, 3)
    c:close()
    assert.equal("attempt to use a closed grid", error_of(astar.batch, c, { { 1, 1, 3, 3 } }))
    -- everything stays usable
    assert.equal(4, astar.batch(g, { { 1, 1, 5, 1 } })[1].cost)
  end)

  it("raises what find_path raises for a request whose costs go wrong, and leaks nothing", function()
    local g = astar.grid(4, 1)
    local pen = astar.field(g, 0)
    pen:set(3, 1, -5)
    local want = error_of(g.find_path, g, 1, 1, 4, 1, { penalty = pen })
    assert.matches("penalty", want)
    assert.equal(want, error_of(astar.batch, g, { { 1, 1, 2, 1 }, { 1, 1, 4, 1 } }, { penalty = pen, threads = 2 }))
    collectgarbage()
    assert.equal(1, astar.batch(g, { { 1, 1, 2, 1 } }, { penalty = pen })[1].cost)
  end)

  it("locks the topology while it runs (nothing in the call can change it)", function()
    local g = astar.grid(6, 6)
    -- an __index on the options runs Lua inside the call: the grid is locked there
    local seen
    local opts = setmetatable({}, { __index = function(_, k)
      if k == "heuristic" then seen = error_of(g.set_blocked, g, 2, 2, true) end
    end })
    local paths = astar.batch(g, { { 1, 1, 6, 6 } }, opts)
    assert.equal("cannot call 'set_blocked': grid is being searched", seen)
    assert.same(g:find_path(1, 1, 6, 6), paths[1])
    assert.is_false(g:is_blocked(2, 2))
  end)
end)
