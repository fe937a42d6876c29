// Original file: proto/nri/api.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { Empty as _nri_pkg_api_v1alpha1_Empty, Empty__Output as _nri_pkg_api_v1alpha1_Empty__Output } from '../../../../nri/pkg/api/v1alpha1/Empty.js';
import type { RegisterPluginRequest as _nri_pkg_api_v1alpha1_RegisterPluginRequest, RegisterPluginRequest__Output as _nri_pkg_api_v1alpha1_RegisterPluginRequest__Output } from '../../../../nri/pkg/api/v1alpha1/RegisterPluginRequest.js';
import type { UpdateContainersRequest as _nri_pkg_api_v1alpha1_UpdateContainersRequest, UpdateContainersRequest__Output as _nri_pkg_api_v1alpha1_UpdateContainersRequest__Output } from '../../../../nri/pkg/api/v1alpha1/UpdateContainersRequest.js';
import type { UpdateContainersResponse as _nri_pkg_api_v1alpha1_UpdateContainersResponse, UpdateContainersResponse__Output as _nri_pkg_api_v1alpha1_UpdateContainersResponse__Output } from '../../../../nri/pkg/api/v1alpha1/UpdateContainersResponse.js';

export interface RuntimeClient extends grpc.Client {
  RegisterPlugin(argument: _nri_pkg_api_v1alpha1_RegisterPluginRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_Empty__Output>): grpc.ClientUnaryCall;
  RegisterPlugin(argument: _nri_pkg_api_v1alpha1_RegisterPluginRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_Empty__Output>): grpc.ClientUnaryCall;
  RegisterPlugin(argument: _nri_pkg_api_v1alpha1_RegisterPluginRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_Empty__Output>): grpc.ClientUnaryCall;
  RegisterPlugin(argument: _nri_pkg_api_v1alpha1_RegisterPluginRequest, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_Empty__Output>): grpc.ClientUnaryCall;
  registerPlugin(argument: _nri_pkg_api_v1alpha1_RegisterPluginRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_Empty__Output>): grpc.ClientUnaryCall;
  registerPlugin(argument: _nri_pkg_api_v1alpha1_RegisterPluginRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_Empty__Output>): grpc.ClientUnaryCall;
  registerPlugin(argument: _nri_pkg_api_v1alpha1_RegisterPluginRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_Empty__Output>): grpc.ClientUnaryCall;
  registerPlugin(argument: _nri_pkg_api_v1alpha1_RegisterPluginRequest, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_Empty__Output>): grpc.ClientUnaryCall;
  
  UpdateContainers(argument: _nri_pkg_api_v1alpha1_UpdateContainersRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_UpdateContainersResponse__Output>): grpc.ClientUnaryCall;
  UpdateContainers(argument: _nri_pkg_api_v1alpha1_UpdateContainersRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_UpdateContainersResponse__Output>): grpc.ClientUnaryCall;
  UpdateContainers(argument: _nri_pkg_api_v1alpha1_UpdateContainersRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_UpdateContainersResponse__Output>): grpc.ClientUnaryCall;
  UpdateContainers(argument: _nri_pkg_api_v1alpha1_UpdateContainersRequest, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_UpdateContainersResponse__Output>): grpc.ClientUnaryCall;
  updateContainers(argument: _nri_pkg_api_v1alpha1_UpdateContainersRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_UpdateContainersResponse__Output>): grpc.ClientUnaryCall;
  updateContainers(argument: _nri_pkg_api_v1alpha1_UpdateContainersRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_UpdateContainersResponse__Output>): grpc.ClientUnaryCall;
  updateContainers(argument: _nri_pkg_api_v1alpha1_UpdateContainersRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_UpdateContainersResponse__Output>): grpc.ClientUnaryCall;
  updateContainers(argument: _nri_pkg_api_v1alpha1_UpdateContainersRequest, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_UpdateContainersResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface RuntimeHandlers extends grpc.UntypedServiceImplementation {
  RegisterPlugin: grpc.handleUnaryCall<_nri_pkg_api_v1alpha1_RegisterPluginRequest__Output, _nri_pkg_api_v1alpha1_Empty>;
  
  UpdateContainers: grpc.handleUnaryCall<_nri_pkg_api_v1alpha1_UpdateContainersRequest__Output, _nri_pkg_api_v1alpha1_UpdateContainersResponse>;
  
}

export interface RuntimeDefinition extends grpc.ServiceDefinition {
  RegisterPlugin: MethodDefinition<_nri_pkg_api_v1alpha1_RegisterPluginRequest, _nri_pkg_api_v1alpha1_Empty, _nri_pkg_api_v1alpha1_RegisterPluginRequest__Output, _nri_pkg_api_v1alpha1_Empty__Output>
  UpdateContainers: MethodDefinition<_nri_pkg_api_v1alpha1_UpdateContainersRequest, _nri_pkg_api_v1alpha1_UpdateContainersResponse, _nri_pkg_api_v1alpha1_UpdateContainersRequest__Output, _nri_pkg_api_v1alpha1_UpdateContainersResponse__Output>
}
