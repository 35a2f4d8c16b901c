"""An S3 service on loopback for the file store tests: moto's server, with request signing
checked as AWS does (IAM authentication on), and one user whose keys may use S3.

Prints one JSON line {"port", "access_key_id", "secret_access_key"}, then serves until its stdin
closes (the test process ended).
"""
import json
import os
import sys

# moto lets this many requests through unauthenticated, then checks every signature against
# the keys it issued: the three below make the user, its policy and its keys.
os.environ["INITIAL_NO_AUTH_ACTION_COUNT"] = "3"
os.environ.setdefault("AWS_DEFAULT_REGION", "us-east-1")

import boto3  # noqa: E402  (moto depends on it)
from moto.core.responses import BaseResponse  # noqa: E402
from moto.server import ThreadedMotoServer  # noqa: E402

# moto checks a signature against the request's URL as werkzeug rebuilds it, with an encoded
# query value decoded (`start-after=ab%2Fcd` becomes `ab/cd`), and so refuses the signature of
# any listing whose parameters hold a slash: boto3's own as well as Parley's. AWS signs the query
# as it was sent (SigV4's canonical query is the encoded pairs): give moto the raw query.
_setup_class = BaseResponse.setup_class


def _setup_class_with_raw_query(self, request, full_url, headers, *args, **kwargs):
    result = _setup_class(self, request, full_url, headers, *args, **kwargs)
    raw = getattr(request, "environ", {}).get("QUERY_STRING")
    if raw:
        self.uri = self.uri.split("?", 1)[0] + "?" + raw
    return result


BaseResponse.setup_class = _setup_class_with_raw_query

server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
server.start()
_, port = server.get_host_and_port()
iam = boto3.client("iam", endpoint_url=f"http://127.0.0.1:{port}", aws_access_key_id="setup", aws_secret_access_key="setup",
                   region_name="us-east-1")
iam.create_user(UserName="parley")
iam.put_user_policy(UserName="parley", PolicyName="s3", PolicyDocument=json.dumps(
    {"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "s3:*", "Resource": "*"}]}))
keys = iam.create_access_key(UserName="parley")["AccessKey"]
print(json.dumps({"port": port, "access_key_id": keys["AccessKeyId"], "secret_access_key": keys["SecretAccessKey"]}), flush=True)
sys.stdin.read()
server.stop()
