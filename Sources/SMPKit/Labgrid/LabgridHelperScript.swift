/// The Python program through which smpctl talks to a labgrid coordinator, with labgrid's own client
/// session (`labgrid.remote.client.start_session`) and its coordinator requests (AcquirePlace,
/// ReleasePlace), as `labgrid-client acquire/release` send them. It is run as
/// `PYTHON -c SOURCE COORDINATOR`, so that an installed smpctl needs no file beside it.
///
/// Protocol, one JSON object a line: first the helper says `{"ready": true, "user": "HOST/USER"}`
/// (or `{"ready": false, "missing": true|false, "error": …}`); then each request
/// (`{"id": N, "op": "places", "pattern": GLOB}`, `{"id": N, "op": "acquire", "place": NAME}`,
/// `{"id": N, "op": "release", "place": NAME}`) gets one answer with its `id`, in order. At the end of
/// its standard input (smpctl ended, however) it releases every place it acquired, then exits.
enum LabgridHelperScript {
    static let source = #"""
import asyncio, fnmatch, json, os, signal, sys

# smpctl's labgrid helper: JSON lines on stdin and stdout. Ctrl-C goes to smpctl, which releases.
signal.signal(signal.SIGINT, signal.SIG_IGN)


def say(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


try:
    import grpc
    from labgrid.remote.client import start_session
    from labgrid.remote.generated import labgrid_coordinator_pb2 as pb2
except ImportError as error:
    say({"ready": False, "missing": True, "error": str(error)})
    sys.exit(0)

SERIAL = ("NetworkSerialPort",)
PUBLISH_SECONDS = 10
try:
    session = start_session(sys.argv[1])
except Exception as error:  # labgrid raises several kinds for an unreachable coordinator
    say({"ready": False, "error": str(error) or type(error).__name__})
    sys.exit(0)
loop = session.loop
me = f"{session.gethostname()}/{session.getuser()}"
taken = set()


def run(coroutine):
    return loop.run_until_complete(coroutine)


def serial_resources(place, acquired):
    """The serial ports a place matches: while acquired its own, else any exporter's."""
    found = []
    for exporter, groups in sorted(session.resources.items()):
        for group_name, group in sorted(groups.items()):
            for name, resource in sorted(group.items()):
                path = (exporter, group_name, resource.cls, name)
                if resource.cls not in SERIAL or place.getmatch(path) is None:
                    continue
                if acquired and resource.acquired != place.name:
                    continue
                found.append((path, resource))
    return found


def describe(place):
    ports = serial_resources(place, False)
    return {
        "name": place.name,
        "holder": place.acquired or None,
        "serial": ["/".join((p[0], p[1], p[3])) for p, _ in ports],
    }


def places(request):
    run(session.sync_with_coordinator())
    pattern = request["pattern"]
    names = sorted(n for n in session.places if fnmatch.fnmatchcase(n, pattern))
    return {"places": [describe(session.places[n]) for n in names]}


def acquire(request):
    name = request["place"]
    run(session.sync_with_coordinator())
    place = session.places.get(name)
    if place is None:
        return {"unknown": True, "places": sorted(session.places)}
    if place.acquired:
        return {"holder": place.acquired}
    if not serial_resources(place, False):
        return {"noSerial": True}
    try:
        run(session.stub.AcquirePlace(pb2.AcquirePlaceRequest(placename=name)))
    except grpc.aio.AioRpcError as error:
        run(session.sync_with_coordinator())
        holder = session.places.get(name)
        if holder is not None and holder.acquired and holder.acquired != me:
            return {"holder": holder.acquired}
        return {"error": error.details()}
    taken.add(name)
    # The exporter starts ser2net once the place is acquired: wait until the port is published.
    deadline = loop.time() + PUBLISH_SECONDS
    while True:
        run(session.sync_with_coordinator())
        ports = serial_resources(session.places[name], True)
        ready = [(p, r) for p, r in ports if r.avail and r.args.get("port")]
        if ready:
            path, resource = ready[0]
            args = resource.args
            return {
                "host": args.get("host") or path[0],
                "port": int(args["port"]),
                "protocol": args.get("protocol", "rfc2217"),
                "speed": int(args.get("speed", 115200)),
                "resource": "/".join((path[0], path[1], path[3])),
            }
        if loop.time() > deadline:
            release({"place": name})
            return {"error": f"its serial port was not published within {PUBLISH_SECONDS} s"}
        run(asyncio.sleep(0.1))


def release(request):
    name = request["place"]
    taken.discard(name)
    try:
        run(session.stub.ReleasePlace(pb2.ReleasePlaceRequest(placename=name, fromuser=me)))
        run(session.sync_with_coordinator())
    except grpc.aio.AioRpcError as error:
        return {"error": error.details()}
    return {}


say({"ready": True, "user": me})
for line in sys.stdin:
    try:
        request = json.loads(line)
        answer = {"places": places, "acquire": acquire, "release": release}[request["op"]](request)
    except Exception as error:  # a request must be answered whatever happened
        answer = {"error": f"{type(error).__name__}: {error}"}
    answer["id"] = request.get("id")
    say(answer)
for name in sorted(taken):
    release({"place": name})
run(session.stop())
"""#
}
