-- The Amnesia monster demo (examples/amnesia_monster.lua): each of the three
-- danger-aware searches must be seen by the player on fewer cells than the
-- plain octile path, and every route must really go from the monster to the
-- spot next to the player.
local demo = dofile("examples/amnesia_monster.lua")

describe("the Amnesia monster demo", function()
  local r = demo.run()
  local plain = r.results[1]

  it("runs the plain search and three danger-aware ones", function()
    assert.equal(4, #r.results)
    assert.equal("plain octile", plain.name)
  end)

  it("every route goes from the monster to a cell next to the player", function()
    for _, x in ipairs(r.results) do
      local first, last = x.path.xy[1], x.path.xy[#x.path.xy]
      assert.same({ 33, 11 }, first)
      assert.is_true(math.abs(last[1] - 4) <= 1 and math.abs(last[2] - 4) <= 1, x.name)
      for k = 2, #x.path.xy do -- a chain of grid steps through open cells
        local a, b = x.path.xy[k - 1], x.path.xy[k]
        assert.is_true(math.max(math.abs(a[1] - b[1]), math.abs(a[2] - b[2])) == 1)
        assert.is_false(r.grid:is_blocked(b[1], b[2]))
      end
    end
  end)

  it("each danger-aware path is seen by the player on fewer cells than the plain one", function()
    for i = 2, 4 do
      local x = r.results[i]
      assert.is_true(x.seen_cells < plain.seen_cells,
        ("%s: seen on %d cells, plain %d"):format(x.name, x.seen_cells, plain.seen_cells))
    end
    -- the cost callback and the penalty field find the hidden service corridor
    assert.is_true(r.results[3].seen_cells <= 2)
    assert.is_true(r.results[4].seen_cells <= 2)
  end)

  it("the plain path is the shortest", function()
    for i = 2, 4 do assert.is_true(r.results[i].length >= plain.length - 1e-9) end
  end)

  it("the smoothed route stays out of sight; string pulling by sight alone does not", function()
    local route = r.route
    assert.is_true(#r.smoothed.points < #route.xy)
    for _, c in ipairs(route.xy) do assert.equal(0, r.lit:get(c[1], c[2])) end
    assert.same(route.xy[1], r.smoothed.points[1])
    assert.same(route.xy[#route.xy], r.smoothed.points[#r.smoothed.points])
    assert.is_true(r.smoothed.seen_cells == 0,
      ("smoothed: seen on %d cells"):format(r.smoothed.seen_cells))
    assert.is_true(r.sight_only.seen_cells > r.smoothed.seen_cells + 5,
      ("sight only: seen on %d cells"):format(r.sight_only.seen_cells))
  end)
end)

-- The README's stealth table: what each approach changes, measured over a
-- fixed set of trials (examples/amnesia_monster.lua's trials()), and the
-- README's rows equal to what this run measures.
describe("the stealth approaches, over the demo's trials", function()
  local rows = demo.trials()
  local by = {}
  for _, r in ipairs(rows) do by[r.name] = r end
  local plain = rows[1]
  local heuristic = { 'Lua heuristic, stop = "expand"', 'Lua heuristic, stop = "first_hit"',
                      'Lua heuristic, stop = "optimal"' }

  it("runs 40 trials of every approach", function()
    assert.equal(6, #rows)
    for _, r in ipairs(rows) do assert.equal(40, r.trials) end
  end)

  it("the cost callback and the penalty field give the same paths", function()
    local cb, pf = by["Lua cost callback"], by["penalty field"]
    assert.same(cb.routes, pf.routes)
    assert.same(cb.costs, pf.costs)
  end)

  it("costs change the route: longer paths, fewer cells in sight", function()
    local pf = by["penalty field"]
    assert.is_true(pf.longer > 0 and pf.changed > 0)
    assert.is_true(pf.seen < plain.seen and pf.length > plain.length)
  end)

  it("a heuristic only changes the order: with stop = \"optimal\" every path costs the plain one", function()
    local opt = by['Lua heuristic, stop = "optimal"']
    for i, c in ipairs(opt.costs) do
      assert.is_true(math.abs(c - plain.costs[i]) <= 1e-9 * c, ("trial %d: %g vs %g"):format(i, c, plain.costs[i]))
    end
    assert.equal(0, opt.longer)
    for _, name in ipairs(heuristic) do
      -- the routes it picks differ from the plain ones only among equally short routes here
      assert.is_true(math.abs(plain.length - by[name].length) < 1e-9) -- sums of the same steps, in another order
      assert.is_true(by[name].seen > by["penalty field"].seen)
    end
  end)

  it("the README's stealth table is what this measures", function()
    local f = assert(io.open("README.md", "rb"))
    local text = f:read("*a")
    f:close()
    local got = {}
    for line in text:gmatch("[^\n]+") do
      for _, r in ipairs(rows) do
        if line:sub(1, #r.name + 4) == "| " .. r.name .. " |" then got[#got + 1] = line end
      end
    end
    assert.same(demo.table_rows(rows), got)
  end)
end)
