"""An independent Remote Execution API client, for the tests of `just`'s
REAPI store: it reads what `just` published and publishes results for `just`
to restore, hostile ones included. It uses the REAPI messages BuildGrid ships
in its package, and nothing of `just`.

  client.py ADDRESS INSTANCE show HASH/SIZE
      Prints, as JSON, the Action (its Command, its input root with every
      input's contents) and its ActionResult (every output and stream, read
      from the CAS and checked against its digest).

  client.py ADDRESS INSTANCE publish HASH/SIZE SPEC.json
      Uploads the blobs SPEC describes and calls UpdateActionResult:
      {"files": [{"path", "content", "mode"?, "executable"?, "size"?}],
       "directories": [{"path", "entries": {NAME: CONTENT | {…} | {"link": T}},
                        "million"?: true}],
       "symlinks": [{"path", "target"}], "stdout", "stderr",
       "corrupt": [CONTENT…] (with "disk": the disk storage's directory:
       each such blob is changed on disk after it is uploaded)}.
"""

import hashlib
import json
import os
import sys
import uuid

import grpc
from buildgrid._protos.build.bazel.remote.execution.v2 import remote_execution_pb2 as re
from buildgrid._protos.build.bazel.remote.execution.v2 import remote_execution_pb2_grpc as re_grpc
from buildgrid._protos.google.bytestream import bytestream_pb2 as bs
from buildgrid._protos.google.bytestream import bytestream_pb2_grpc as bs_grpc

BATCH = 1 << 20
CHUNK = 64 << 10


def digest_of(data):
    return re.Digest(hash=hashlib.sha256(data).hexdigest(), size_bytes=len(data))


class Client:
    def __init__(self, address, instance):
        self.channel = grpc.insecure_channel(
            address,
            options=[("grpc.max_receive_message_length", 1 << 30), ("grpc.max_send_message_length", 1 << 30)],
        )
        self.instance = instance
        self.cas = re_grpc.ContentAddressableStorageStub(self.channel)
        self.ac = re_grpc.ActionCacheStub(self.channel)
        self.bytestream = bs_grpc.ByteStreamStub(self.channel)

    def resource(self, rest):
        return f"{self.instance}/{rest}" if self.instance else rest

    def read(self, digest):
        if digest.size_bytes <= BATCH:
            answer = self.cas.BatchReadBlobs(re.BatchReadBlobsRequest(instance_name=self.instance, digests=[digest]))
            if answer.responses[0].status.code != 0:
                raise KeyError(digest.hash)
            data = answer.responses[0].data
        else:
            name = self.resource(f"blobs/{digest.hash}/{digest.size_bytes}")
            data = b"".join(r.data for r in self.bytestream.Read(bs.ReadRequest(resource_name=name)))
        assert digest_of(data) == digest, f"blob {digest.hash} does not match its digest"
        return data

    def write(self, data):
        digest = digest_of(data)
        if len(data) <= BATCH:
            request = re.BatchUpdateBlobsRequest(instance_name=self.instance)
            request.requests.add(digest=digest, data=data)
            answer = self.cas.BatchUpdateBlobs(request)
            assert answer.responses[0].status.code == 0, answer
        else:
            name = self.resource(f"uploads/{uuid.uuid4()}/blobs/{digest.hash}/{digest.size_bytes}")

            def chunks():
                for offset in range(0, len(data), CHUNK):
                    yield bs.WriteRequest(
                        resource_name=name,
                        write_offset=offset,
                        data=data[offset:offset + CHUNK],
                        finish_write=offset + CHUNK >= len(data),
                    )

            self.bytestream.Write(chunks())
        return digest

    def message(self, digest, kind):
        message = kind()
        message.ParseFromString(self.read(digest))
        return message

    def directory(self, digest, prefix, into):
        directory = self.message(digest, re.Directory)
        for file in directory.files:
            into[prefix + file.name] = self.read(file.digest).decode("utf-8", "replace")
        for node in directory.directories:
            self.directory(node.digest, prefix + node.name + "/", into)
        return into


def parse_digest(text):
    hash, size = text.split("/")
    return re.Digest(hash=hash, size_bytes=int(size))


def mode_of(node, executable):
    if node.HasField("node_properties") and node.node_properties.HasField("unix_mode"):
        return node.node_properties.unix_mode.value
    return None


def show(client, action_digest):
    try:
        action = client.message(action_digest, re.Action)
    except KeyError:
        print(json.dumps({"action": None, "result": result_of(client, action_digest)}))
        return
    command = client.message(action.command_digest, re.Command)
    shown = {
        "arguments": list(command.arguments),
        "environment": {v.name: v.value for v in command.environment_variables},
        "working_directory": command.working_directory,
        "output_paths": list(command.output_paths),
        "platform": {p.name: p.value for p in action.platform.properties},
        "salt": action.salt.decode(),
        "inputs": client.directory(action.input_root_digest, "", {}),
        "result": result_of(client, action_digest),
    }
    print(json.dumps(shown, sort_keys=True))


def result_of(client, action_digest):
    """The ActionResult of the action, every blob read, or None."""
    try:
        result = client.ac.GetActionResult(
            re.GetActionResultRequest(instance_name=client.instance, action_digest=action_digest)
        )
    except grpc.RpcError as error:
        if error.code() != grpc.StatusCode.NOT_FOUND:
            raise
        return None
    files = {}
    for file in result.output_files:
        files[file.path] = {
            "content": client.read(file.digest).decode("utf-8", "replace"),
            "executable": file.is_executable,
            "mode": mode_of(file, file.is_executable),
        }
    directories = {}
    for output in result.output_directories:
        tree = client.message(output.tree_digest, re.Tree)
        children = {digest_of(child.SerializeToString()).hash: child for child in tree.children}
        entries = {}

        def walk(directory, prefix):
            for file in directory.files:
                entries[prefix + file.name] = {
                    "content": client.read(file.digest).decode("utf-8", "replace"),
                    "executable": file.is_executable,
                    "mode": mode_of(file, file.is_executable),
                }
            for link in directory.symlinks:
                entries[prefix + link.name] = {"link": link.target}
            for node in directory.directories:
                entries[prefix + node.name + "/"] = {"directory": True}
                walk(children[node.digest.hash], prefix + node.name + "/")

        walk(tree.root, "")
        directories[output.path] = entries
    return {
        "exit_code": result.exit_code,
        "files": files,
        "directories": directories,
        "symlinks": {link.path: link.target for link in result.output_symlinks},
        "stdout": client.read(result.stdout_digest).decode(),
        "stderr": client.read(result.stderr_digest).decode(),
    }


def build_directory(client, entries, corrupt):
    """A Directory of `entries` (uploaded with its files), and its subdirectories."""
    directory = re.Directory()
    children = []
    for name in sorted(entries):
        value = entries[name]
        if isinstance(value, str):
            directory.files.add(name=name, digest=client.write(value.encode()))
        elif "link" in value:
            directory.symlinks.add(name=name, target=value["link"])
        else:
            child, grandchildren = build_directory(client, value, corrupt)
            children.append(child)
            children.extend(grandchildren)
            directory.directories.add(name=name, digest=digest_of(child.SerializeToString()))
    return directory, children


def publish(client, action_digest, spec):
    result = re.ActionResult(exit_code=spec.get("exit_code", 0))
    for file in spec.get("files", []):
        digest = client.write(file["content"].encode())
        if "size" in file:
            digest = re.Digest(hash=digest.hash, size_bytes=file["size"])
        output = result.output_files.add(path=file["path"], digest=digest, is_executable=file.get("executable", False))
        if "mode" in file:
            output.node_properties.unix_mode.value = file["mode"]
    for directory in spec.get("directories", []):
        if directory.get("million"):
            empty = client.write(b"")
            root = re.Directory()
            for index in range(1_000_000):
                root.files.add(name=f"f{index:07}", digest=empty)
            children = []
        else:
            root, children = build_directory(client, directory["entries"], [])
        tree = re.Tree(root=root, children=children)
        result.output_directories.add(path=directory["path"], tree_digest=client.write(tree.SerializeToString()))
    for link in spec.get("symlinks", []):
        result.output_symlinks.add(path=link["path"], target=link["target"])
    result.stdout_digest.CopyFrom(client.write(spec.get("stdout", "").encode()))
    result.stderr_digest.CopyFrom(client.write(spec.get("stderr", "").encode()))
    for content in spec.get("corrupt", []):
        digest = digest_of(content.encode())
        path = os.path.join(spec["disk"], "cas", "objects", digest.hash[:2], digest.hash[2:])
        with open(path, "wb") as file:
            file.write(content.encode().swapcase())
    client.ac.UpdateActionResult(
        re.UpdateActionResultRequest(instance_name=client.instance, action_digest=action_digest, action_result=result)
    )


def main():
    address, instance, command, digest = sys.argv[1:5]
    client = Client(address, instance)
    if command == "show":
        show(client, parse_digest(digest))
    elif command == "publish":
        with open(sys.argv[5]) as file:
            publish(client, parse_digest(digest), json.load(file))
    else:
        sys.exit(f"unknown command {command}")


if __name__ == "__main__":
    main()
