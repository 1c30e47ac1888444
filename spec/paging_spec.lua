-- Search state that follows the work: a query's per-node state is paged in
-- as the search touches nodes, so a short query on a huge map holds little,
-- and state left by earlier queries never leaks into later answers.
local astar = require("astar")

describe("paged search state", function()
  it("a short query on a fresh 1024x1024 grid holds pages, not the map", function()
    local g = astar.grid(1024, 1024)
    local before = g:memory()
    local p = g:find_path(500, 500, 560, 500)
    assert.equal(61, #p.nodes)
    local added = g:memory() - before
    -- the directory (16 bytes per 64 cells: 264 KB) and a few pages; a whole
    -- map of state would be 20 bytes a cell (21 MB)
    assert.is_true(added < 512 * 1024, "added " .. added)
  end)

  it("pages grow with the region searched, and later short queries reuse them", function()
    local g = astar.grid(300, 300)
    for y = 1, 299 do g:set_blocked(150, y, true) end
    assert.equal(3, #g:find_path(10, 10, 12, 10).nodes) -- labels made, a few pages
    local m1 = g:memory()
    local long = g:find_path(1, 1, 300, 1, { algorithm = "astar" }) -- A*: every cell
    assert.truthy(long)
    local m2 = g:memory()
    -- the long search paged in most of the map: 20 bytes a node
    assert.is_true(m2 - m1 > 1000000, ("%d %d"):format(m1, m2))
    -- state from the long search is stale for the next one: same answers
    assert.equal(3, #g:find_path(10, 10, 12, 10).nodes)
    assert.equal(m2, g:memory())
    assert.same(long.nodes, g:find_path(1, 1, 300, 1, { algorithm = "astar" }).nodes)
  end)

  it("many live queries, each stepped a little, answer as find_path does #pure", function()
    local g = astar.grid(128, 128)
    for y = 1, 120 do g:set_blocked(64, y, true) end
    local qs = {}
    for i = 1, 100 do
      qs[i] = g:query(1 + i % 50, 1 + i % 100, 128 - i % 45, 128 - i % 75, { algorithm = "astar" })
      assert.equal("searching", qs[i]:step(50))
    end
    for i = 1, 100 do
      assert.equal("found", qs[i]:step())
      assert.equal(g:find_path(1 + i % 50, 1 + i % 100, 128 - i % 45, 128 - i % 75).cost,
        qs[i]:result().cost)
    end
  end)
end)
