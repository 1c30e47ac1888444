-- Rule 5: nested searches on the topology a call is using (from its
-- callbacks) work, and leave the outer call's answer alone.  The rules:
-- spec/lifetime/common.lua.
local H = require("lifetime.common")
local PATH_OPTS, path_opts, query_digest, same, usable = H.PATH_OPTS, H.path_opts, H.query_digest, H.same, H.usable
local new_topo, nested_search, plain_ref, do_query = H.new_topo, H.nested_search, H.plain_ref, H.do_query
local do_distances, path_ref, dist_ref, passthrough = H.do_distances, H.path_ref, H.dist_ref, H.passthrough

describe("lifetime: nested searches on the same topology leave the outer call alone", function()
  for _, kind in ipairs({ "grid", "graph" }) do
    it(("%s:distances: its callback runs find_path, distances and a query on the %s"):format(kind, kind), function()
      local g = new_topo(kind)
      local nested
      local got = do_distances(g, kind, { cost = passthrough("cost", kind, function()
        if nested then return end
        nested = { find_path = nested_search(g, kind), distances = do_distances(g, kind) }
        local q = do_query(g, kind, PATH_OPTS)
        nested.query = query_digest(q, q:step())
      end) })
      same(dist_ref(kind), got, "the outer distances")
      same(plain_ref(kind), nested.find_path, "the nested path")
      same(dist_ref(kind), nested.distances, "the nested distances")
      same("found | found | found | " .. path_ref(kind) .. " | path | found", nested.query, "the nested query")
      usable(g, kind)
    end)

    it(("%s q:step: its callback runs find_path and distances on the %s"):format(kind, kind), function()
      local g = new_topo(kind)
      local nested
      local q = do_query(g, kind, path_opts({ cost = passthrough("cost", kind, function()
        if nested then return end
        nested = { find_path = nested_search(g, kind), distances = do_distances(g, kind) }
      end) }))
      local st = q:step(10)
      assert.equal("searching", st)
      same("searching | searching | found | " .. path_ref(kind) .. " | path | found", query_digest(q, st), "the query")
      same(plain_ref(kind), nested.find_path, "the nested path")
      same(dist_ref(kind), nested.distances, "the nested distances")
      usable(g, kind)
    end)
  end
end)
