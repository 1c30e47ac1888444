-- astar.svg: pictures of grids and graphs.  The output is parsed back with a
-- small strict XML reader (balanced tags, quoted attributes, escaped text),
-- then checked against the map: the cell runs repaint the grid exactly, the
-- fill repaints the expanded cells with shades that darken in expansion
-- order, the path polyline has one point per path node at the right centre,
-- graph circles sit at the node positions and edges are drawn once per pair.
local astar = require("astar")
local svg = require("astar.svg").svg
local labyrinth = require("astar.waypoints").labyrinth
local error_of = require("helpers").error_of

-- A strict little XML reader: returns the root element { name, attrs,
-- children, text }, or raises on anything malformed.
local function parse(text)
  local prolog = '<?xml version="1.0" encoding="UTF-8"?>\n'
  assert(text:sub(1, #prolog) == prolog, "missing XML declaration")
  local pos = #prolog + 1
  local root = { children = {} }
  local stack = { root }
  local function check_text(s)
    assert(not s:gsub("&[%a#%d]+;", ""):find("[&<>]"), "unescaped text: " .. s)
  end
  while true do
    local lt = text:find("<", pos, true)
    local chunk = text:sub(pos, (lt or #text + 1) - 1)
    check_text(chunk)
    if chunk:find("%S") then
      local top = stack[#stack]
      top.text = (top.text or "") .. chunk
    end
    if not lt then break end
    if text:sub(lt, lt + 1) == "</" then
      local name, after = text:match("^</([%w:_%-]+)>()", lt)
      assert(name, "bad closing tag at " .. lt)
      local top = table.remove(stack)
      assert(top.name == name, ("</%s> closes <%s>"):format(name, tostring(top.name)))
      pos = after
    else
      local name, rest, close, after = text:match("^<([%w:_%-]+)([^<>]-)(/?)>()", lt)
      assert(name, "bad tag at " .. lt .. ": " .. text:sub(lt, lt + 40))
      local attrs, order = {}, {}
      local left = rest:gsub('%s+([%w:_%-]+)="([^"]*)"', function(k, v)
        assert(attrs[k] == nil, "attribute " .. k .. " twice")
        check_text(v)
        attrs[k] = v
        order[#order + 1] = k
        return ""
      end)
      assert(not left:find("%S"), "bad attributes: " .. rest)
      local el = { name = name, attrs = attrs, children = {} }
      table.insert(stack[#stack].children, el)
      if close == "" then stack[#stack + 1] = el end
      pos = after
    end
  end
  assert(#stack == 1, "unclosed <" .. tostring(stack[#stack].name) .. ">")
  assert(#root.children == 1, "more than one root element")
  assert(not text:sub(pos):find("%S"))
  return root.children[1]
end

local function find_id(el, id)
  if el.attrs and el.attrs.id == id then return el end
  for _, c in ipairs(el.children) do
    local found = find_id(c, id)
    if found then return found end
  end
end

-- All descendants named `name`, in document order.
local function all(el, name, out)
  out = out or {}
  for _, c in ipairs(el.children) do
    if c.name == name then out[#out + 1] = c end
    all(c, name, out)
  end
  return out
end

local function points_of(polyline)
  local pts = {}
  for x, y in polyline.attrs.points:gmatch("(%S+),(%S+)") do pts[#pts + 1] = { tonumber(x), tonumber(y) } end
  return pts
end

local function num(v) return (("%.3f"):format(v):gsub("0+$", ""):gsub("%.$", "")) end

local function luminance(hex)
  local r, g, b = hex:match("^#(%x%x)(%x%x)(%x%x)$")
  assert(r, "not a colour: " .. tostring(hex))
  return 0.2126 * tonumber(r, 16) + 0.7152 * tonumber(g, 16) + 0.0722 * tonumber(b, 16)
end

-- Paints the unit rects of the groups under `parent` into cells[id] =
-- value(group); each cell at most once.
local function paint(parent, w, h, value)
  local cells, count = {}, 0
  for gi, group in ipairs(parent.children) do
    if group.name == "g" then
      for _, r in ipairs(group.children) do
        assert.equal("rect", r.name)
        assert.equal("1", r.attrs.height)
        local x0, y0, len = tonumber(r.attrs.x), tonumber(r.attrs.y), tonumber(r.attrs.width)
        assert.is_true(x0 >= 0 and y0 >= 0 and x0 + len <= w and y0 < h and len >= 1)
        for x = x0 + 1, x0 + len do
          local id = y0 * w + x
          assert.is_nil(cells[id], "cell painted twice")
          cells[id] = value(group, gi)
        end
        count = count + 1
      end
    end
  end
  return cells, count
end

local MAP = [[
..##..~
#.....~
..%%.#.
,,..~##
]]
local LEGEND = { ["~"] = 3, ["%"] = "water", [","] = 0.5 }
local CLASS = { ["#"] = "blocked", ["~"] = "dear", [","] = "cheap", ["%"] = "tagged" }

describe("svg of a grid", function()
  local grid = astar.grid_from_string(MAP, LEGEND)
  local W, H = grid:size()

  it("is a well-formed SVG 1.1 document with the requested size", function()
    local doc = parse(svg(grid, { cell = 10 }))
    assert.equal("svg", doc.name)
    assert.equal("http://www.w3.org/2000/svg", doc.attrs.xmlns)
    assert.equal("1.1", doc.attrs.version)
    assert.equal("70", doc.attrs.width)
    assert.equal("40", doc.attrs.height)
    assert.equal("0 0 70 40", doc.attrs.viewBox)
    -- the default cell: 24 pixels up to 20 cells, then the map fits 480
    assert.equal("168", parse(svg(grid)).attrs.width)
    local big = parse(svg(astar.grid(200, 100)))
    assert.equal("480", big.attrs.width)
    assert.equal("240", big.attrs.height)
  end)

  it("draws the cells: one background rect, then runs that repaint the map exactly", function()
    local doc = parse(svg(grid))
    local cells = find_id(doc, "cells")
    assert.equal("rect", cells.children[1].name)
    assert.equal("7", cells.children[1].attrs.width)
    assert.equal("4", cells.children[1].attrs.height)
    local painted, count = paint(cells, W, H, function(group) return group.attrs.class end)
    local y = 0
    for line in MAP:gmatch("[^\n]+") do
      y = y + 1
      for x = 1, #line do
        assert.equal(CLASS[line:sub(x, x)], painted[(y - 1) * W + x], ("cell %d, %d"):format(x, y))
      end
    end
    -- maximal runs: blocked "##" "#" "#" "##" (to the edge), dear "~" "~" "~",
    -- cheap ",,", tagged "%%"
    assert.equal(9, count)
    local fills = {}
    for i = 2, #cells.children do fills[#fills + 1] = cells.children[i].attrs.fill end
    assert.equal(4, #fills)
    for i = 1, #fills do
      for j = i + 1, #fills do assert.are_not.equal(fills[i], fills[j]) end
    end
  end)

  it("shades the fill by expansion order, early light, late dark", function()
    local p = assert(grid:find_path(1, 1, 7, 3, { heuristic = "zero", visited = true }))
    local doc = parse(svg(grid, { path = p, visited = p.visited }))
    local fill = find_id(doc, "fill")
    local groups = {}
    for _, g in ipairs(fill.children) do groups[#groups + 1] = g end
    local painted = paint(fill, W, H, function(_, gi) return gi end)
    -- exactly the expanded cells, each once
    local distinct, seen = {}, {}
    for _, id in ipairs(p.visited) do
      if not seen[id] then
        seen[id] = true
        distinct[#distinct + 1] = id
      end
    end
    local n = 0
    for id in pairs(painted) do
      assert.is_true(seen[id], "cell " .. id .. " painted but not expanded")
      n = n + 1
    end
    assert.equal(#distinct, n)
    -- min(n, 16) shades, strictly darker group after group
    assert.equal(math.min(#distinct, 16), #groups)
    for i = 2, #groups do
      assert.is_true(luminance(groups[i].attrs.fill) < luminance(groups[i - 1].attrs.fill))
    end
    -- along the expansion order the shade never gets lighter
    for i = 2, #distinct do
      assert.is_true(painted[distinct[i]] >= painted[distinct[i - 1]])
    end
    assert.equal(1, painted[distinct[1]])
    assert.equal(#groups, painted[distinct[#distinct]])
  end)

  it("takes the fill from a trace as well (first expansion counts)", function()
    local p = assert(grid:find_path(1, 1, 7, 3, { visited = true, trace = true }))
    assert.equal(svg(grid, { visited = p.visited }), svg(grid, { trace = p.trace }))
    -- a re-expansion keeps the cell's first shade
    local again = { p.visited[1], p.visited[2], p.visited[1] }
    assert.equal(svg(grid, { visited = { p.visited[1], p.visited[2] } }), svg(grid, { visited = again }))
    -- and visited wins over trace
    assert.equal(svg(grid, { visited = p.visited }), svg(grid, { visited = p.visited, trace = { { node = 1 } } }))
    local reversed = {}
    for i = #p.visited, 1, -1 do reversed[#reversed + 1] = p.visited[i] end
    assert.are_not.equal(svg(grid, { visited = p.visited }), svg(grid, { visited = reversed }))
  end)

  it("draws the path through cell centres, with start and goal markers", function()
    local p = assert(grid:find_path(1, 1, 7, 3))
    local doc = parse(svg(grid, { path = p }))
    local path = find_id(doc, "path")
    local lines = all(path, "polyline")
    assert.equal(1, #lines)
    local pts = points_of(lines[1])
    assert.equal(#p.nodes, #pts)
    for i, c in ipairs(p.xy) do assert.same({ c[1] - 0.5, c[2] - 0.5 }, pts[i]) end
    local start, goal = find_id(doc, "start"), find_id(doc, "goal")
    assert.same({ 0.5, 0.5 }, { tonumber(start.attrs.cx), tonumber(start.attrs.cy) })
    assert.same({ 6.5, 2.5 }, { tonumber(goal.attrs.cx), tonumber(goal.attrs.cy) })
    -- a list of cell ids draws the same
    assert.equal(svg(grid, { path = p }), svg(grid, { path = p.nodes }))
    -- no path: no polyline, no markers
    local plain = parse(svg(grid))
    assert.equal(0, #all(plain, "polyline"))
    assert.is_nil(find_id(plain, "start"))
  end)

  it("draws a path's points (smooth, any_angle) as a second line, and takes points alone", function()
    local p = assert(grid:find_path(1, 1, 7, 3, { smooth = true }))
    local doc = parse(svg(grid, { path = p }))
    local pts = points_of(all(find_id(doc, "points"), "polyline")[1])
    assert.equal(#p.points, #pts)
    for i, c in ipairs(p.points) do assert.same({ c[1] - 0.5, c[2] - 0.5 }, pts[i]) end
    -- the cell path is still drawn under it
    assert.equal(#p.nodes, #points_of(all(find_id(doc, "path"), "polyline")[1]))
    -- points given: drawn instead of the path's own; fractions allowed
    local alone = parse(svg(grid, { points = { { 1, 1 }, { 2.5, 1.25 } } }))
    assert.same({ { 0.5, 0.5 }, { 2, 0.75 } }, points_of(all(find_id(alone, "points"), "polyline")[1]))
    -- without points, no such group
    assert.is_nil(find_id(parse(svg(grid, { path = grid:find_path(1, 1, 7, 3) })), "points"))
  end)

  it("tints a field's cells above 0, more opaque where higher", function()
    local f = astar.field(grid)
    f:set(1, 1, 1)
    f:set(2, 1, 4)
    f:set(4, 1, -2)
    local doc = parse(svg(grid, { field = f }))
    local rects = all(find_id(doc, "field"), "rect")
    local by_x = {}
    for _, r in ipairs(rects) do by_x[tonumber(r.attrs.x) + 1] = tonumber(r.attrs["fill-opacity"]) end
    assert.is_true(by_x[1] < by_x[2])
    assert.equal(0.7, by_x[2])           -- the largest finite value
    assert.is_nil(by_x[3])
    assert.is_nil(by_x[4])               -- not above 0
    -- a distances field draws too (inf where unreachable: the darkest)
    local d = grid:distances({ { 1, 1 } })
    assert.is_true(#all(find_id(parse(svg(grid, { field = d })), "field"), "rect") > 0)
  end)

  it("puts the map under the title band and escapes the title", function()
    local doc = parse(svg(grid, { title = 'a <b> & "c"', cell = 10 }))
    assert.equal("64", doc.attrs.height)
    assert.equal('a &lt;b&gt; &amp; &quot;c&quot;', all(doc, "title")[1].text)
    assert.equal('a &lt;b&gt; &amp; &quot;c&quot;', all(doc, "text")[1].text)
    assert.equal("translate(0,24) scale(10)", find_id(doc, "map").attrs.transform)
    assert.equal(0, #all(parse(svg(grid)), "title"))
  end)

  it("is deterministic, the same on every Lua (pinned output)", function()
    local g = astar.grid_from_string(".#~\n...", { ["~"] = 2 }, { diagonal = "never" })
    local p = assert(g:find_path(1, 1, 3, 1, { visited = true }))
    local text = svg(g, { path = p, visited = p.visited, cell = 20 })
    assert.equal(text, svg(g, { path = p, visited = p.visited, cell = 20 }))
    assert.equal(table.concat({
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="60" height="40" viewBox="0 0 60 40">',
      '<rect width="60" height="40" fill="#ffffff"/>',
      '<g id="map" transform="translate(0,0) scale(20)">',
      '<g id="cells">',
      '<rect width="3" height="2" fill="#f4f1ea"/>',
      '<g class="blocked" fill="#3b3b3b">',
      '<rect x="1" y="0" width="1" height="1"/>',
      '</g>',
      '<g class="dear" fill="#e3c98f">',
      '<rect x="2" y="0" width="1" height="1"/>',
      '</g>',
      '</g>',
      '<g id="fill">',
      '<g fill="#c9d8e9">', '<rect x="0" y="0" width="1" height="1"/>', '</g>',
      '<g fill="#9eb3cd">', '<rect x="0" y="1" width="1" height="1"/>', '</g>',
      '<g fill="#738eb1">', '<rect x="1" y="1" width="1" height="1"/>', '</g>',
      '<g fill="#486895">', '<rect x="2" y="1" width="1" height="1"/>', '</g>',
      '<g fill="#1d4379">', '<rect x="2" y="0" width="1" height="1"/>', '</g>',
      '</g>',
      '<path id="gridlines" d="M0 0V2M1 0V2M2 0V2M3 0V2M0 0H3M0 1H3M0 2H3" fill="none" stroke="#000000" '
        .. 'stroke-opacity="0.12" stroke-width="0.04"/>',
      '<g id="path">',
      '<polyline points="0.5,0.5 0.5,1.5 1.5,1.5 2.5,1.5 2.5,0.5" fill="none" stroke="#e8590c" '
        .. 'stroke-width="0.3" stroke-linecap="round" stroke-linejoin="round"/>',
      '</g>',
      '<g id="ends">',
      '<circle id="start" cx="0.5" cy="0.5" r="0.36" fill="#2b8a3e" stroke="#ffffff" stroke-width="0.08"/>',
      '<circle id="goal" cx="2.5" cy="0.5" r="0.36" fill="#c92a2a" stroke="#ffffff" stroke-width="0.08"/>',
      '</g>',
      '</g>',
      '</svg>',
    }, "\n") .. "\n", text)
  end)

  it("stays small on a big map: runs, not one element per cell", function()
    local g = astar.grid(256, 256)
    for y = 20, 236 do g:set_blocked(128, y, true) end
    for x = 40, 200 do g:set_blocked(x, 60, true) end
    local p = assert(g:find_path(1, 128, 256, 128, { heuristic = "zero", visited = true }))
    assert.is_true(#p.visited > 60000)
    local text = svg(g, { path = p, visited = p.visited })
    local rects = select(2, text:gsub("<rect ", ""))
    assert.is_true(rects < 65536 / 4, rects .. " rects")
    assert.is_true(#text < 600 * 1024, #text .. " bytes")
    local doc = parse(text)
    -- 480 / 256 pixels a cell: the path stays 2 pixels wide, the markers 5 in radius
    assert.equal(num(2 / (480 / 256)), all(doc, "polyline")[1].attrs["stroke-width"])
    assert.equal(num(5 / (480 / 256)), find_id(doc, "start").attrs.r)
  end)
end)

describe("svg of a graph", function()
  -- 1 <-> 2, 2 -> 3 (one way), 3 <-> 4 twice (parallel), 4 -> 4, 4 -> 5,
  -- node 5 disabled
  local function sample()
    local g = astar.graph()
    g:add_node(0, 0); g:add_node(4, 0); g:add_node(4, 3); g:add_node(8, 3); g:add_node(8, 6)
    g:connect(1, 2, 4)
    g:add_edge(2, 3, 3)
    g:connect(3, 4, 4)
    g:connect(4, 3, 5)
    g:add_edge(4, 4, 1)
    g:add_edge(4, 5, 3)
    g:set_enabled(5, false)
    return g
  end

  it("draws one circle per node at its position, in id order", function()
    local g = sample()
    local doc = parse(svg(g))
    local circles = find_id(doc, "nodes").children
    assert.equal(5, #circles)
    for i, c in ipairs(circles) do
      local x, y = g:position(i)
      assert.equal("circle", c.name)
      assert.same({ x, y }, { tonumber(c.attrs.cx), tonumber(c.attrs.cy) })
    end
    -- scaled to fit 480 pixels, with a margin
    local w, h = tonumber(doc.attrs.width), tonumber(doc.attrs.height)
    assert.is_true(math.max(w, h) > 479.9 and math.max(w, h) < 480.1)
    assert.near(w / h, (8 + 2 * math.sqrt(48 / 5)) / (6 + 2 * math.sqrt(48 / 5)), 1e-3)
    -- the disabled node is dark, the others white (the group's fill)
    assert.equal("#ffffff", find_id(doc, "nodes").attrs.fill)
    for i = 1, 4 do assert.is_nil(circles[i].attrs.fill) end
    assert.is_true(luminance(circles[5].attrs.fill) < 100)
  end)

  it("draws each joined pair once: plain when both ways, an arrow when one way", function()
    local g = sample()
    local doc = parse(svg(g))
    local both = find_id(doc, "edges-both")
    local segs = {}
    for x1, y1, x2, y2 in both.attrs.d:gmatch("M([%d.-]+) ([%d.-]+)L([%d.-]+) ([%d.-]+)") do
      segs[#segs + 1] = table.concat({ x1, y1, x2, y2 }, ",")
    end
    assert.same({ "0,0,4,0", "4,3,8,3" }, segs)
    assert.equal(2, select(2, both.attrs.d:gsub("M", "")))
    local one = find_id(doc, "edges-one-way")
    assert.equal("url(#arrow)", one.attrs["marker-end"])
    assert.equal(2, #one.children)
    -- from 2 (4, 0) towards 3 (4, 3), stopping at 3's circle
    local l = one.children[1].attrs
    assert.same({ 4, 0, 4 }, { tonumber(l.x1), tonumber(l.y1), tonumber(l.x2) })
    local r = tonumber(find_id(doc, "nodes").children[1].attrs.r)
    assert.near(3 - r, tonumber(l.y2), 1e-3)
    l = one.children[2].attrs
    assert.same({ 8, 3, 8 }, { tonumber(l.x1), tonumber(l.y1), tonumber(l.x2) })
    assert.near(6 - r, tonumber(l.y2), 1e-3)
    assert.equal(1, #all(doc, "marker"))
    -- a graph without one-way edges has no arrow group
    local two = astar.graph()
    two:add_node(0, 0); two:add_node(1, 1)
    two:connect(1, 2, 1)
    assert.is_nil(find_id(parse(svg(two)), "edges-one-way"))
  end)

  it("draws a labyrinth: every node, every corridor once", function()
    local g = labyrinth(20, 20, { edge_probability = 0.5, seed = 18185 })
    local doc = parse(svg(g))
    assert.equal(400, #find_id(doc, "nodes").children)
    assert.equal(g:edge_count() / 2, select(2, find_id(doc, "edges-both").attrs.d:gsub("M", "")))
    assert.is_nil(find_id(doc, "edges-one-way"))
  end)

  it("shades expanded nodes by order and highlights the path", function()
    local g = labyrinth(20, 20, { edge_probability = 0.5, seed = 18185 })
    local p = assert(g:find_path(1, 400, { visited = true, stop = "optimal" }))
    local doc = parse(svg(g, { path = p, visited = p.visited, title = "t" }))
    local circles = find_id(doc, "nodes").children
    local seen = {}
    local last = math.huge
    for _, id in ipairs(p.visited) do
      if not seen[id] then
        seen[id] = true
        local lum = luminance(circles[id].attrs.fill)
        assert.is_true(lum <= last)
        last = lum
      end
    end
    for id = 1, 400 do
      if not seen[id] then assert.is_nil(circles[id].attrs.fill) end
    end
    local pts = points_of(all(find_id(doc, "path"), "polyline")[1])
    assert.equal(#p.nodes, #pts)
    for i, id in ipairs(p.nodes) do
      local x, y = g:position(id)
      assert.same({ x, y }, pts[i])
    end
    assert.same({ 0, 0 }, { tonumber(find_id(doc, "start").attrs.cx), tonumber(find_id(doc, "start").attrs.cy) })
    assert.same({ 19, 19 }, { tonumber(find_id(doc, "goal").attrs.cx), tonumber(find_id(doc, "goal").attrs.cy) })
    -- a README-sized picture
    assert.is_true(#svg(g, { path = p, visited = p.visited, title = "t" }) < 50 * 1024)
  end)

  it("handles empty, single-node and one-line graphs", function()
    local empty = parse(svg(astar.graph()))
    assert.equal(0, #find_id(empty, "nodes").children)
    local one = astar.graph()
    one:add_node(5, 5)
    local doc = parse(svg(one, { path = { 1 } }))
    assert.equal(1, #points_of(all(doc, "polyline")[1]))
    local line = astar.graph()
    for i = 1, 3 do line:add_node(i, 0) end
    doc = parse(svg(line))
    assert.is_true(tonumber(doc.attrs.width) > tonumber(doc.attrs.height))
  end)
end)

describe("svg bad input", function()
  local grid = astar.grid(3, 2)
  local graph = astar.graph()
  for i = 1, 3 do graph:add_node(i, 0) end
  local cases = {
    { function() svg(5) end, "bad argument #1 to 'svg' (astar.Grid, astar.Hex or astar.Graph expected, got number)" },
    { function() svg(nil) end, "bad argument #1 to 'svg' (astar.Grid, astar.Hex or astar.Graph expected, got nil)" },
    { function() svg(astar.field(grid)) end,
      "bad argument #1 to 'svg' (astar.Grid, astar.Hex or astar.Graph expected, got astar.Field)" },
    { function() svg(grid, "big") end, "bad argument #2 to 'svg' (table expected, got string)" },
    { function() svg(grid, { pth = {} }) end, "bad argument #2 to 'svg' (unknown option \"pth\")" },
    { function() svg(grid, { 1 }) end, "bad argument #2 to 'svg' (unknown option 1)" },
    { function() svg(grid, { points = 3 }) end,
      "bad argument #2 to 'svg' (points must be a list of {x, y}, got 3)" },
    { function() svg(grid, { points = { { 1, 1 }, { 0, 1 } } }) end,
      "bad argument #2 to 'svg' (points[2] must be a point {x, y} inside the 3x2 grid, got table)" },
    { function() svg(grid, { points = { { 1, 0 / 0 } } }) end,
      "bad argument #2 to 'svg' (points[1] must be a point {x, y} inside the 3x2 grid, got table)" },
    { function() svg(grid, { points = { "1,1" } }) end,
      "bad argument #2 to 'svg' (points[1] must be a point {x, y} inside the 3x2 grid, got \"1,1\")" },
    { function() svg(grid, { field = 1 }) end, "bad argument #2 to 'svg' (field must be an astar.Field, got 1)" },
    { function() svg(grid, { field = astar.field(astar.grid(2, 2)) }) end,
      "bad argument #2 to 'svg' (field is 2x2 but the grid is 3x2)" },
    { function() svg(graph, { points = {} }) end, "bad argument #2 to 'svg' (points is only for grids)" },
    { function() svg(graph, { field = astar.field(grid) }) end, "bad argument #2 to 'svg' (field is only for grids)" },
    { function() svg(grid, { cell = 0 }) end, "bad argument #2 to 'svg' (cell must be a finite number > 0, got 0)" },
    { function() svg(grid, { cell = math.huge }) end,
      "bad argument #2 to 'svg' (cell must be a finite number > 0, got inf)" },
    { function() svg(grid, { cell = "8" }) end, "bad argument #2 to 'svg' (cell must be a finite number > 0, got \"8\")" },
    { function() svg(grid, { title = 3 }) end, "bad argument #2 to 'svg' (title must be a string, got 3)" },
    { function() svg(grid, { path = 3 }) end,
      "bad argument #2 to 'svg' (path must be a find_path result or a list of cell ids, got 3)" },
    { function() svg(grid, { path = { 1, 0 } }) end, "bad argument #2 to 'svg' (path[2] must be a cell id in 1..6, got 0)" },
    { function() svg(grid, { path = { nodes = { 1, 7 } } }) end,
      "bad argument #2 to 'svg' (path.nodes[2] must be a cell id in 1..6, got 7)" },
    { function() svg(grid, { path = { nodes = "1" } }) end,
      "bad argument #2 to 'svg' (path.nodes must be a list of cell ids, got \"1\")" },
    { function() svg(grid, { visited = true }) end,
      "bad argument #2 to 'svg' (visited must be a list of cell ids, got true)" },
    { function() svg(grid, { visited = { 1, 2.5 } }) end,
      "bad argument #2 to 'svg' (visited[2] must be a cell id in 1..6, got 2.5)" },
    { function() svg(grid, { trace = "t" }) end,
      "bad argument #2 to 'svg' (trace must be a list of trace entries, got \"t\")" },
    { function() svg(grid, { trace = { 5 } }) end,
      "bad argument #2 to 'svg' (trace[1] must be a table { node = id, ... }, got 5)" },
    { function() svg(grid, { trace = { { node = 99 } } }) end,
      "bad argument #2 to 'svg' (trace[1].node must be a cell id in 1..6, got 99)" },
    { function() svg(grid, { trace = { {} } }) end,
      "bad argument #2 to 'svg' (trace[1].node must be a cell id in 1..6, got nil)" },
    { function() svg(graph, { path = { 1, 4 } }) end,
      "bad argument #2 to 'svg' (path[2] must be a node id in 1..3, got 4)" },
    { function() svg(graph, { visited = { "1" } }) end,
      "bad argument #2 to 'svg' (visited[1] must be a node id in 1..3, got \"1\")" },
    { function() svg(astar.graph(), { path = { 1 } }) end,
      "bad argument #2 to 'svg' (path[1] must be a node id, but there are no nodes (got 1))" },
  }
  for i, c in ipairs(cases) do
    it(c[2]:match("%((.*)%)$") .. " #" .. i, function() assert.equal(c[2], error_of(c[1])) end)
  end

  it("blames the caller's line", function()
    local ok, err = pcall(function() svg(grid, { path = { 0 } }) end)
    assert.is_false(ok)
    assert.truthy(err:match("^[^\n]*svg_spec%.lua:%d+: bad argument #2 to 'svg'"))
  end)

  it("reports closed grids and graphs", function()
    local g = astar.grid(2, 2)
    g:close()
    assert.equal("attempt to use a closed grid", error_of(svg, g))
    local h = astar.graph()
    h:close()
    assert.equal("attempt to use a closed graph", error_of(svg, h))
  end)
end)

describe("svg at the extremes", function()
  -- the output as a checked document: never inf or nan, anywhere
  local function finite_doc(text)
    assert.is_nil(text:lower():find("inf", 1, true), "inf in the picture")
    assert.is_nil(text:lower():find("nan", 1, true), "nan in the picture")
    return parse(text)
  end
  local function map_group(doc) return find_id(doc, "map").attrs.transform end
  local function circle_xy(doc, i)
    local c = find_id(doc, "nodes").children[i].attrs
    return tonumber(c.cx), tonumber(c.cy)
  end

  it("refuses a grid cell that makes the picture's size overflow", function()
    assert.equal("bad argument #2 to 'svg' (cell too large for a 3x3 grid (the picture's size in pixels "
      .. "overflows), got 1e+308)", error_of(svg, astar.grid(3, 3), { cell = 1e308 }))
    assert.equal("bad argument #2 to 'svg' (cell too large for a 65535x1 grid (the picture's size in pixels "
      .. "overflows), got 1e+304)", error_of(svg, astar.grid(65535, 1), { cell = 1e304 }))
    local ok, err = pcall(function() svg(astar.grid(3, 3), { cell = 1e308 }) end)
    assert.is_false(ok)
    assert.truthy(err:match("^[^\n]*svg_spec%.lua:%d+: bad argument #2 to 'svg'"))
  end)

  it("refuses a grid cell so small that the path and markers would be infinitely wide in cells", function()
    assert.equal("bad argument #2 to 'svg' (cell too small (a 5-pixel marker would be inf cells wide), "
      .. "got 4.9406564584125e-324)", error_of(svg, astar.grid(3, 3), { cell = 5e-324 }))
  end)

  it("draws extreme but finite grid cells finitely, path and markers included", function()
    local g = astar.grid(3, 3)
    local p = assert(g:find_path(1, 1, 3, 3))
    local doc = finite_doc(svg(g, { cell = 1e300, path = p }))
    assert.equal(3e300, tonumber(doc.attrs.width))
    doc = finite_doc(svg(g, { cell = 1e-300, path = p }))
    assert.equal("0", doc.attrs.width)
    assert.equal("translate(0,0) scale(1e-300)", map_group(doc))
  end)

  it("keeps 6 significant digits of a scale below 1 (3 decimals would make it 0)", function()
    assert.equal("translate(0,0) scale(0.0123)", map_group(parse(svg(astar.grid(3, 3), { cell = 0.0123 }))))
    local g = astar.graph()
    g:add_node(0, 0); g:add_node(1e6, 5e5)
    g:connect(1, 2, 1)
    -- spacing sqrt(1e6 * 5e5 / 2) = 5e5, so the view is 2e6 x 1.5e6 units
    local doc = finite_doc(svg(g))
    assert.equal("translate(0,0) scale(0.00024) translate(500000,500000)", map_group(doc))
    assert.same({ 1e6, 5e5 }, { circle_xy(doc, 2) })
    assert.equal("480", doc.attrs.width)
  end)

  it("draws a graph spanning -1e308..1e308 in its own units, finite and in proportion", function()
    local g = astar.graph()
    g:add_node(1e308, 0); g:add_node(-1e308, 0); g:add_node(0, 1e308)
    g:add_edge(1, 2, 1)
    g:connect(2, 3, 1)
    local doc = finite_doc(svg(g, { path = { 1, 2, 3 }, visited = { 2 }, title = "far" }))
    local x1, y1 = circle_xy(doc, 1)
    local x2, y2 = circle_xy(doc, 2)
    local x3, y3 = circle_xy(doc, 3)
    -- moved to the origin, scaled by a power of two to span 512..1024
    assert.same({ 0, 0 }, { x2, y2 })
    assert.equal(0, y1)
    assert.is_true(x1 >= 512 and x1 < 1024)
    assert.near(x1 / 2, x3, 1e-3)
    assert.near(x1 / 2, y3, 1e-3)
    assert.equal("480", doc.attrs.width)
    assert.equal(3, #points_of(all(find_id(doc, "path"), "polyline")[1]))
    assert.equal(1, #find_id(doc, "edges-one-way").children)
  end)

  it("draws a graph within 1e-320 in its own units, its nodes apart", function()
    local g = astar.graph()
    g:add_node(0, 0); g:add_node(1e-320, 0); g:add_node(0, 5e-324)
    g:add_edge(1, 2, 0)
    local doc = finite_doc(svg(g, { path = { 1, 2 } }))
    local x2 = circle_xy(doc, 2)
    local _, y3 = circle_xy(doc, 3)
    assert.is_true(x2 >= 512 and x2 < 1024)
    assert.near(1e-320 / 5e-324, x2 / y3, 1e-9)  -- 2024 smallest doubles to one
  end)

  it("draws a graph spanning 1e100 as it is (only extreme spans are rescaled)", function()
    local g = astar.graph()
    g:add_node(0, 0); g:add_node(1e100, 1e100)
    local doc = finite_doc(svg(g))
    assert.same({ 1e100, 1e100 }, { circle_xy(doc, 2) })
  end)

  it("refuses a graph cell that makes the picture's size overflow, takes one that does not", function()
    local g = astar.graph()
    g:add_node(1e308, 0); g:add_node(-1e308, 0)
    assert.equal("bad argument #2 to 'svg' (cell too large for this graph (the picture's size in pixels "
      .. "overflows), got 1)", error_of(svg, g, { cell = 1 }))
    local doc = finite_doc(svg(g, { cell = 1e-300 }))
    assert.is_true(tonumber(doc.attrs.width) > 2e8)
    local one = astar.graph()
    one:add_node(0, 0); one:add_node(1, 0)
    assert.equal("bad argument #2 to 'svg' (cell too large for this graph (the picture's size in pixels "
      .. "overflows), got 1e+308)", error_of(svg, one, { cell = 1e308 }))
  end)

  it("writes a title that is not UTF-8 as UTF-8, bad bytes as U+FFFD", function()
    local R = "\239\191\189"
    local cases = {
      { "caf\195\169 \226\130\172 \240\159\152\128", "caf\195\169 \226\130\172 \240\159\152\128" }, -- valid
      { "caf\233", "caf" .. R },                          -- Latin-1
      { "\192\128", R .. R },                              -- overlong NUL
      { "\237\160\128", R .. R .. R },                     -- a surrogate
      { "\239\191\190 \239\191\191", R .. R .. R .. " " .. R .. R .. R }, -- U+FFFE, U+FFFF
      { "\244\144\128\128", R .. R .. R .. R },            -- above U+10FFFF
      { "end \226\130", "end " .. R .. R },                -- cut short
    }
    for _, c in ipairs(cases) do
      local doc = parse(svg(astar.grid(2, 2), { title = c[1] }))
      assert.equal(c[2], all(doc, "title")[1].text)
    end
  end)

  it("reads lists raw and fields once, like the C functions; __pairs is not called", function()
    local trap = function() error("metamethod called") end
    local g = astar.grid(3, 1)
    local visited = setmetatable({ 1, 2 }, { __len = trap, __index = trap })
    local opts = setmetatable({ visited = visited }, { __pairs = trap })
    local doc = parse(svg(g, opts))
    assert.equal(2, #all(find_id(doc, "fill"), "rect"))
    -- a path whose nodes come through __index, read once
    local reads = 0
    local path = setmetatable({}, { __index = function(_, k)
      if k == "nodes" then
        reads = reads + 1
        return reads == 1 and { 1, 2, 3 } or "changed"
      end
    end })
    doc = parse(svg(g, { path = path }))
    assert.equal(1, reads)
    assert.equal(3, #points_of(all(find_id(doc, "path"), "polyline")[1]))
    -- a cell option through __index, read once
    reads = 0
    opts = setmetatable({}, { __index = function(_, k)
      if k == "cell" then
        reads = reads + 1
        return reads == 1 and 10 or 1e308
      end
    end })
    assert.equal("30", parse(svg(g, opts)).attrs.width)
    assert.equal(1, reads)
  end)

  it("reports a closed grid or graph at the caller's line, even one closed by an option's __index", function()
    local g = astar.grid(2, 2)
    g:close()
    local ok, err = pcall(function() svg(g) end)
    assert.is_false(ok)
    assert.truthy(err:match("^[^\n]*svg_spec%.lua:%d+: attempt to use a closed grid$"), err)
    local h = astar.graph()
    h:add_node(0, 0)
    local path = setmetatable({}, { __index = function(_, k)
      if k == "nodes" then h:close() return { 1 } end
    end })
    ok, err = pcall(function() svg(h, { path = path }) end)
    assert.is_false(ok)
    assert.truthy(err:match("^[^\n]*svg_spec%.lua:%d+: attempt to use a closed graph$"), err)
  end)
end)
