-- post.lua: wrk script POSTing the lockfile named by $LOCKFILE to the URL given to wrk.
local f = assert(io.open(os.getenv("LOCKFILE"), "rb"))
wrk.method = "POST"
wrk.body = f:read("*a")
f:close()
wrk.headers["Content-Type"] = "application/octet-stream"
-- IF_NONE_MATCH (optional): sent as If-None-Match (loadtest/repeat.sh's 304 run)
if os.getenv("IF_NONE_MATCH") then
  wrk.headers["If-None-Match"] = os.getenv("IF_NONE_MATCH")
end
