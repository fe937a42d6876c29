// Original file: proto/nri/api.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { Empty as _nri_pkg_api_v1alpha1_Empty, Empty__Output as _nri_pkg_api_v1alpha1_Empty__Output } from '../../../../nri/pkg/api/v1alpha1/Empty.js';
import type { LogRequest as _nri_pkg_api_v1alpha1_LogRequest, LogRequest__Output as _nri_pkg_api_v1alpha1_LogRequest__Output } from '../../../../nri/pkg/api/v1alpha1/LogRequest.js';

export interface HostFunctionsClient extends grpc.Client {
  Log(argument: _nri_pkg_api_v1alpha1_LogRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_Empty__Output>): grpc.ClientUnaryCall;
  Log(argument: _nri_pkg_api_v1alpha1_LogRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_Empty__Output>): grpc.ClientUnaryCall;
  Log(argument: _nri_pkg_api_v1alpha1_LogRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_Empty__Output>): grpc.ClientUnaryCall;
  Log(argument: _nri_pkg_api_v1alpha1_LogRequest, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_Empty__Output>): grpc.ClientUnaryCall;
  log(argument: _nri_pkg_api_v1alpha1_LogRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_Empty__Output>): grpc.ClientUnaryCall;
  log(argument: _nri_pkg_api_v1alpha1_LogRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_Empty__Output>): grpc.ClientUnaryCall;
  log(argument: _nri_pkg_api_v1alpha1_LogRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_Empty__Output>): grpc.ClientUnaryCall;
  log(argument: _nri_pkg_api_v1alpha1_LogRequest, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_Empty__Output>): grpc.ClientUnaryCall;
  
}

export interface HostFunctionsHandlers extends grpc.UntypedServiceImplementation {
  Log: grpc.handleUnaryCall<_nri_pkg_api_v1alpha1_LogRequest__Output, _nri_pkg_api_v1alpha1_Empty>;
  
}

export interface HostFunctionsDefinition extends grpc.ServiceDefinition {
  Log: MethodDefinition<_nri_pkg_api_v1alpha1_LogRequest, _nri_pkg_api_v1alpha1_Empty, _nri_pkg_api_v1alpha1_LogRequest__Output, _nri_pkg_api_v1alpha1_Empty__Output>
}
