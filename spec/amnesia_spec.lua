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
