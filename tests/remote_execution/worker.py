"""A minimal REAPI worker for the tests, speaking the Remote Workers (Bots)
API to BuildGrid. BuildGrid ships no worker; production farms use the
server's own workers. One lease at a time:

    python worker.py --server 127.0.0.1:PORT --instance NAME --bot-id ID
                     --journal FILE [--property KEY=VALUE]...

It creates a bot session with the given device properties and polls it with
UpdateBotSession. For each lease it fetches the Action, its Command and input
root, runs the Command's arguments in a fresh directory with only the
Command's environment (in a process group of its own, killed when the lease is
cancelled or the Action's timeout passes), uploads the declared outputs,
stdout and stderr, and reports the lease COMPLETED with the ActionResult.
It appends one JSON line per event to the journal (`start`, `end`,
`cancelled`, `timeout`) with the time, so tests can count executions and see
overlaps. It exits when its standard input ends.
"""

import argparse
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import uuid

import grpc
from buildgrid._protos.build.bazel.remote.execution.v2 import remote_execution_pb2 as re
from buildgrid._protos.google.bytestream import bytestream_pb2, bytestream_pb2_grpc
from buildgrid._protos.google.devtools.remoteworkers.v1test2 import bots_pb2, bots_pb2_grpc, worker_pb2
from buildgrid._protos.google.rpc import code_pb2, status_pb2

CHUNK = 1 << 20
ACTIVE, COMPLETED, CANCELLED, PENDING = (
    bots_pb2.LeaseState.ACTIVE,
    bots_pb2.LeaseState.COMPLETED,
    bots_pb2.LeaseState.CANCELLED,
    bots_pb2.LeaseState.PENDING,
)


def digest_of(data):
    return re.Digest(hash=hashlib.sha256(data).hexdigest(), size_bytes=len(data))


class Cas:
    def __init__(self, channel, instance):
        self.stream = bytestream_pb2_grpc.ByteStreamStub(channel)
        self.prefix = f"{instance}/" if instance else ""

    def read(self, digest):
        if digest.size_bytes == 0:
            return b""
        name = f"{self.prefix}blobs/{digest.hash}/{digest.size_bytes}"
        data = b"".join(r.data for r in self.stream.Read(bytestream_pb2.ReadRequest(resource_name=name)))
        if digest_of(data) != digest:
            raise ValueError(f"blob {digest.hash} does not match its digest")
        return data

    def read_message(self, digest, message):
        message.ParseFromString(self.read(digest))
        return message

    def write(self, data):
        digest = digest_of(data)
        name = f"{self.prefix}uploads/{uuid.uuid4()}/blobs/{digest.hash}/{digest.size_bytes}"

        def requests():
            offset = 0
            while True:
                chunk = data[offset : offset + CHUNK]
                last = offset + len(chunk) >= len(data)
                yield bytestream_pb2.WriteRequest(
                    resource_name=name, write_offset=offset, data=chunk, finish_write=last
                )
                offset += len(chunk)
                if last:
                    return

        self.stream.Write(requests())
        return digest


def mode_of(node, default):
    if node.HasField("node_properties") and node.node_properties.HasField("unix_mode"):
        return node.node_properties.unix_mode.value & 0o7777
    return default


def materialize(cas, digest, path):
    """Write the input tree `digest` at `path`."""
    os.makedirs(path, exist_ok=True)
    directory = cas.read_message(digest, re.Directory())
    for node in directory.files:
        target = os.path.join(path, node.name)
        with open(target, "wb") as file:
            file.write(cas.read(node.digest))
        os.chmod(target, mode_of(node, 0o755 if node.is_executable else 0o644))
    for node in directory.symlinks:
        os.symlink(node.target, os.path.join(path, node.name))
    for node in directory.directories:
        materialize(cas, node.digest, os.path.join(path, node.name))


def file_node(cas, path, name, modes):
    with open(path, "rb") as file:
        data = file.read()
    mode = os.stat(path).st_mode & 0o7777
    node = re.FileNode(name=name, digest=cas.write(data), is_executable=bool(mode & 0o100))
    if modes:
        node.node_properties.unix_mode.value = mode
    return node


def directory_message(cas, path, children, modes):
    """The Directory at `path`, its subdirectories appended to `children`."""
    directory = re.Directory()
    if modes:
        directory.node_properties.unix_mode.value = os.stat(path).st_mode & 0o7777
    for name in sorted(os.listdir(path)):
        full = os.path.join(path, name)
        if os.path.islink(full):
            directory.symlinks.add(name=name, target=os.readlink(full))
        elif os.path.isdir(full):
            child = directory_message(cas, full, children, modes)
            children.append(child)
            directory.directories.add(name=name, digest=digest_of(child.SerializeToString()))
        elif os.path.isfile(full):
            directory.files.append(file_node(cas, full, name, modes))
    return directory


def collect_outputs(cas, command, root, result):
    cwd = os.path.join(root, command.working_directory)
    modes = "unix_mode" in command.output_node_properties
    paths = list(command.output_paths) or list(command.output_files) + list(command.output_directories)
    for relative in paths:
        full = os.path.join(cwd, relative)
        if os.path.islink(full):
            result.output_symlinks.add(path=relative, target=os.readlink(full))
        elif os.path.isdir(full):
            children = []
            tree = re.Tree(root=directory_message(cas, full, children, modes), children=children)
            result.output_directories.add(path=relative, tree_digest=cas.write(tree.SerializeToString()))
        elif os.path.isfile(full):
            node = file_node(cas, full, relative, modes)
            output = result.output_files.add(path=relative, digest=node.digest, is_executable=node.is_executable)
            if modes:
                output.node_properties.CopyFrom(node.node_properties)


class Worker:
    def __init__(self, arguments):
        self.arguments = arguments
        self.channel = grpc.insecure_channel(arguments.server)
        self.bots = bots_pb2_grpc.BotsStub(self.channel)
        self.cas = Cas(self.channel, arguments.instance)
        self.lock = threading.RLock()
        self.wake = threading.Event()
        self.finished = set()
        self.running = {}  # lease id -> {"process": Popen | None, "done": Lease | None, "cancelled": bool}
        self.journal = open(arguments.journal, "a")
        self.scratch = tempfile.mkdtemp(prefix="just-worker-")

    def note(self, event, lease, **fields):
        line = json.dumps({"event": event, "bot": self.arguments.bot_id, "lease": lease, "time": time.time(), **fields})
        with self.lock:
            self.journal.write(line + "\n")
            self.journal.flush()

    def session(self):
        properties = [worker_pb2.Device.Property(key=k, value=v) for k, v in self.properties()]
        device = worker_pb2.Device(handle=self.arguments.bot_id, properties=properties)
        return bots_pb2.BotSession(
            bot_id=self.arguments.bot_id,
            status=bots_pb2.BotStatus.OK,
            worker=worker_pb2.Worker(devices=[device]),
        )

    def properties(self):
        for pair in self.arguments.property:
            key, _, value = pair.partition("=")
            yield key, value

    def run(self):
        session = self.bots.CreateBotSession(
            bots_pb2.CreateBotSessionRequest(parent=self.arguments.instance, bot_session=self.session()),
            timeout=30,
        )
        self.note("session", "", name=session.name)
        for lease in session.leases:
            self.handle(lease)
        while True:
            with self.lock:
                del session.leases[:]
                for lease_id, state in self.running.items():
                    if state["done"] is not None:
                        session.leases.append(state["done"])
                    else:
                        session.leases.add(id=lease_id, state=ACTIVE)
                reported = {lease_id for lease_id, state in self.running.items() if state["done"] is not None}
                busy = bool(self.running)
            try:
                session = self.bots.UpdateBotSession(
                    bots_pb2.UpdateBotSessionRequest(name=session.name, bot_session=session),
                    timeout=1 if busy else 5,
                )
            except grpc.RpcError as error:
                if error.code() not in (grpc.StatusCode.DEADLINE_EXCEEDED, grpc.StatusCode.UNAVAILABLE):
                    raise
                time.sleep(0.1)
                continue
            with self.lock:
                for lease_id in reported:
                    self.running.pop(lease_id, None)
                    self.finished.add(lease_id)
                # The server drops a cancelled lease from the session.
                present = {lease.id for lease in session.leases}
                for lease_id, state in list(self.running.items()):
                    if lease_id not in present and state["done"] is None:
                        self.cancel(lease_id, state)
            for lease in session.leases:
                self.handle(lease)
            if self.running:
                self.wake.wait(0.3)
                self.wake.clear()

    def handle(self, lease):
        with self.lock:
            state = self.running.get(lease.id)
            if lease.state == CANCELLED:
                if state is not None and state["done"] is None:
                    self.cancel(lease.id, state)
                return
            if lease.state not in (PENDING, ACTIVE) or state is not None or lease.id in self.finished:
                return
            self.running[lease.id] = {"process": None, "done": None, "cancelled": False}
        threading.Thread(target=self.execute, args=(lease,), daemon=True).start()

    def cancel(self, lease_id, state):
        """Stop running `lease_id` (the caller holds the lock)."""
        state["cancelled"] = True
        kill(state["process"])
        self.running.pop(lease_id, None)
        self.finished.add(lease_id)

    def execute(self, lease):
        try:
            result, status = self.perform(lease)
        except Exception as error:  # reported to the server as the lease's failure
            result, status = re.ActionResult(), status_pb2.Status(code=code_pb2.INTERNAL, message=str(error))
        done = bots_pb2.Lease(id=lease.id, state=COMPLETED, status=status)
        done.result.Pack(result)
        with self.lock:
            state = self.running.get(lease.id)
            if state is None or state["cancelled"]:
                return
            state["done"] = done
        self.wake.set()

    def perform(self, lease):
        if lease.payload.Is(re.Action.DESCRIPTOR):
            action = re.Action()
            lease.payload.Unpack(action)
        else:
            digest = re.Digest()
            lease.payload.Unpack(digest)
            action = self.cas.read_message(digest, re.Action())
        action_hash = digest_of(action.SerializeToString()).hash
        command = self.cas.read_message(action.command_digest, re.Command())
        directory = tempfile.mkdtemp(dir=self.scratch)
        try:
            root = os.path.join(directory, "root")
            materialize(self.cas, action.input_root_digest, root)
            cwd = os.path.join(root, command.working_directory)
            paths = list(command.output_paths) or list(command.output_files) + list(command.output_directories)
            for relative in [cwd] + [os.path.dirname(os.path.join(cwd, p)) for p in paths]:
                os.makedirs(relative, exist_ok=True)
            environment = {v.name: v.value for v in command.environment_variables}
            timeout = action.timeout.seconds + action.timeout.nanos / 1e9 if action.HasField("timeout") else None
            self.note("start", lease.id, action=action_hash, arguments=list(command.arguments))
            with open(os.path.join(directory, "stdout"), "w+b") as out, open(
                os.path.join(directory, "stderr"), "w+b"
            ) as err:
                process = subprocess.Popen(
                    list(command.arguments),
                    cwd=cwd,
                    env=environment,
                    stdin=subprocess.DEVNULL,
                    stdout=out,
                    stderr=err,
                    start_new_session=True,
                )
                with self.lock:
                    state = self.running.get(lease.id)
                    if state is None or state["cancelled"]:
                        kill(process)
                        process.wait()
                        self.note("cancelled", lease.id, action=action_hash)
                        return re.ActionResult(), status_pb2.Status(code=code_pb2.CANCELLED)
                    state["process"] = process
                try:
                    exit_code = process.wait(timeout=timeout)
                    status = status_pb2.Status(code=code_pb2.OK)
                except subprocess.TimeoutExpired:
                    kill(process)
                    exit_code = process.wait()
                    status = status_pb2.Status(
                        code=code_pb2.DEADLINE_EXCEEDED, message=f"the action ran past its timeout of {timeout} s"
                    )
                    self.note("timeout", lease.id, action=action_hash)
                with self.lock:
                    state = self.running.get(lease.id)
                    if state is None or state["cancelled"]:
                        self.note("cancelled", lease.id, action=action_hash)
                        return re.ActionResult(), status_pb2.Status(code=code_pb2.CANCELLED)
                result = re.ActionResult(exit_code=exit_code if exit_code >= 0 else 128 - exit_code)
                out.seek(0)
                result.stdout_digest.CopyFrom(self.cas.write(out.read()))
                err.seek(0)
                result.stderr_digest.CopyFrom(self.cas.write(err.read()))
            collect_outputs(self.cas, command, root, result)
            self.note("end", lease.id, action=action_hash, exit_code=result.exit_code)
            return result, status
        finally:
            shutil.rmtree(directory, ignore_errors=True)


def kill(process):
    if process is not None and process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", required=True)
    parser.add_argument("--instance", default="")
    parser.add_argument("--bot-id", required=True)
    parser.add_argument("--journal", required=True)
    parser.add_argument("--property", action="append", default=[])
    arguments = parser.parse_args()
    worker = Worker(arguments)

    def watch_stdin():
        while sys.stdin.buffer.read(4096):
            pass
        with worker.lock:
            for state in worker.running.values():
                kill(state["process"])
        shutil.rmtree(worker.scratch, ignore_errors=True)
        os._exit(0)

    threading.Thread(target=watch_stdin, daemon=True).start()
    try:
        worker.run()
    except BaseException:
        traceback.print_exc()
    shutil.rmtree(worker.scratch, ignore_errors=True)
    sys.stderr.flush()
    os._exit(1)


if __name__ == "__main__":
    main()
