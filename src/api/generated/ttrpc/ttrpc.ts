import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { Any as _google_protobuf_Any, Any__Output as _google_protobuf_Any__Output } from './google/protobuf/Any.js';
import type { Status as _google_rpc_Status, Status__Output as _google_rpc_Status__Output } from './google/rpc/Status.js';
import type { KeyValue as _ttrpc_KeyValue, KeyValue__Output as _ttrpc_KeyValue__Output } from './ttrpc/KeyValue.js';
import type { Request as _ttrpc_Request, Request__Output as _ttrpc_Request__Output } from './ttrpc/Request.js';
import type { Response as _ttrpc_Response, Response__Output as _ttrpc_Response__Output } from './ttrpc/Response.js';
import type { StringList as _ttrpc_StringList, StringList__Output as _ttrpc_StringList__Output } from './ttrpc/StringList.js';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  google: {
    protobuf: {
      Any: MessageTypeDefinition<_google_protobuf_Any, _google_protobuf_Any__Output>
    }
    rpc: {
      Status: MessageTypeDefinition<_google_rpc_Status, _google_rpc_Status__Output>
    }
  }
  ttrpc: {
    KeyValue: MessageTypeDefinition<_ttrpc_KeyValue, _ttrpc_KeyValue__Output>
    Request: MessageTypeDefinition<_ttrpc_Request, _ttrpc_Request__Output>
    Response: MessageTypeDefinition<_ttrpc_Response, _ttrpc_Response__Output>
    StringList: MessageTypeDefinition<_ttrpc_StringList, _ttrpc_StringList__Output>
  }
}

