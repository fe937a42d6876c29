// Original file: proto/nri/api.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { ConfigureRequest as _nri_pkg_api_v1alpha1_ConfigureRequest, ConfigureRequest__Output as _nri_pkg_api_v1alpha1_ConfigureRequest__Output } from '../../../../nri/pkg/api/v1alpha1/ConfigureRequest.js';
import type { ConfigureResponse as _nri_pkg_api_v1alpha1_ConfigureResponse, ConfigureResponse__Output as _nri_pkg_api_v1alpha1_ConfigureResponse__Output } from '../../../../nri/pkg/api/v1alpha1/ConfigureResponse.js';
import type { CreateContainerRequest as _nri_pkg_api_v1alpha1_CreateContainerRequest, CreateContainerRequest__Output as _nri_pkg_api_v1alpha1_CreateContainerRequest__Output } from '../../../../nri/pkg/api/v1alpha1/CreateContainerRequest.js';
import type { CreateContainerResponse as _nri_pkg_api_v1alpha1_CreateContainerResponse, CreateContainerResponse__Output as _nri_pkg_api_v1alpha1_CreateContainerResponse__Output } from '../../../../nri/pkg/api/v1alpha1/CreateContainerResponse.js';
import type { Empty as _nri_pkg_api_v1alpha1_Empty, Empty__Output as _nri_pkg_api_v1alpha1_Empty__Output } from '../../../../nri/pkg/api/v1alpha1/Empty.js';
import type { PostCreateContainerRequest as _nri_pkg_api_v1alpha1_PostCreateContainerRequest, PostCreateContainerRequest__Output as _nri_pkg_api_v1alpha1_PostCreateContainerRequest__Output } from '../../../../nri/pkg/api/v1alpha1/PostCreateContainerRequest.js';
import type { PostCreateContainerResponse as _nri_pkg_api_v1alpha1_PostCreateContainerResponse, PostCreateContainerResponse__Output as _nri_pkg_api_v1alpha1_PostCreateContainerResponse__Output } from '../../../../nri/pkg/api/v1alpha1/PostCreateContainerResponse.js';
import type { PostStartContainerRequest as _nri_pkg_api_v1alpha1_PostStartContainerRequest, PostStartContainerRequest__Output as _nri_pkg_api_v1alpha1_PostStartContainerRequest__Output } from '../../../../nri/pkg/api/v1alpha1/PostStartContainerRequest.js';
import type { PostStartContainerResponse as _nri_pkg_api_v1alpha1_PostStartContainerResponse, PostStartContainerResponse__Output as _nri_pkg_api_v1alpha1_PostStartContainerResponse__Output } from '../../../../nri/pkg/api/v1alpha1/PostStartContainerResponse.js';
import type { PostUpdateContainerRequest as _nri_pkg_api_v1alpha1_PostUpdateContainerRequest, PostUpdateContainerRequest__Output as _nri_pkg_api_v1alpha1_PostUpdateContainerRequest__Output } from '../../../../nri/pkg/api/v1alpha1/PostUpdateContainerRequest.js';
import type { PostUpdateContainerResponse as _nri_pkg_api_v1alpha1_PostUpdateContainerResponse, PostUpdateContainerResponse__Output as _nri_pkg_api_v1alpha1_PostUpdateContainerResponse__Output } from '../../../../nri/pkg/api/v1alpha1/PostUpdateContainerResponse.js';
import type { PostUpdatePodSandboxRequest as _nri_pkg_api_v1alpha1_PostUpdatePodSandboxRequest, PostUpdatePodSandboxRequest__Output as _nri_pkg_api_v1alpha1_PostUpdatePodSandboxRequest__Output } from '../../../../nri/pkg/api/v1alpha1/PostUpdatePodSandboxRequest.js';
import type { PostUpdatePodSandboxResponse as _nri_pkg_api_v1alpha1_PostUpdatePodSandboxResponse, PostUpdatePodSandboxResponse__Output as _nri_pkg_api_v1alpha1_PostUpdatePodSandboxResponse__Output } from '../../../../nri/pkg/api/v1alpha1/PostUpdatePodSandboxResponse.js';
import type { RemoveContainerRequest as _nri_pkg_api_v1alpha1_RemoveContainerRequest, RemoveContainerRequest__Output as _nri_pkg_api_v1alpha1_RemoveContainerRequest__Output } from '../../../../nri/pkg/api/v1alpha1/RemoveContainerRequest.js';
import type { RemoveContainerResponse as _nri_pkg_api_v1alpha1_RemoveContainerResponse, RemoveContainerResponse__Output as _nri_pkg_api_v1alpha1_RemoveContainerResponse__Output } from '../../../../nri/pkg/api/v1alpha1/RemoveContainerResponse.js';
import type { RemovePodSandboxRequest as _nri_pkg_api_v1alpha1_RemovePodSandboxRequest, RemovePodSandboxRequest__Output as _nri_pkg_api_v1alpha1_RemovePodSandboxRequest__Output } from '../../../../nri/pkg/api/v1alpha1/RemovePodSandboxRequest.js';
import type { RemovePodSandboxResponse as _nri_pkg_api_v1alpha1_RemovePodSandboxResponse, RemovePodSandboxResponse__Output as _nri_pkg_api_v1alpha1_RemovePodSandboxResponse__Output } from '../../../../nri/pkg/api/v1alpha1/RemovePodSandboxResponse.js';
import type { RunPodSandboxRequest as _nri_pkg_api_v1alpha1_RunPodSandboxRequest, RunPodSandboxRequest__Output as _nri_pkg_api_v1alpha1_RunPodSandboxRequest__Output } from '../../../../nri/pkg/api/v1alpha1/RunPodSandboxRequest.js';
import type { RunPodSandboxResponse as _nri_pkg_api_v1alpha1_RunPodSandboxResponse, RunPodSandboxResponse__Output as _nri_pkg_api_v1alpha1_RunPodSandboxResponse__Output } from '../../../../nri/pkg/api/v1alpha1/RunPodSandboxResponse.js';
import type { StartContainerRequest as _nri_pkg_api_v1alpha1_StartContainerRequest, StartContainerRequest__Output as _nri_pkg_api_v1alpha1_StartContainerRequest__Output } from '../../../../nri/pkg/api/v1alpha1/StartContainerRequest.js';
import type { StartContainerResponse as _nri_pkg_api_v1alpha1_StartContainerResponse, StartContainerResponse__Output as _nri_pkg_api_v1alpha1_StartContainerResponse__Output } from '../../../../nri/pkg/api/v1alpha1/StartContainerResponse.js';
import type { StateChangeEvent as _nri_pkg_api_v1alpha1_StateChangeEvent, StateChangeEvent__Output as _nri_pkg_api_v1alpha1_StateChangeEvent__Output } from '../../../../nri/pkg/api/v1alpha1/StateChangeEvent.js';
import type { StopContainerRequest as _nri_pkg_api_v1alpha1_StopContainerRequest, StopContainerRequest__Output as _nri_pkg_api_v1alpha1_StopContainerRequest__Output } from '../../../../nri/pkg/api/v1alpha1/StopContainerRequest.js';
import type { StopContainerResponse as _nri_pkg_api_v1alpha1_StopContainerResponse, StopContainerResponse__Output as _nri_pkg_api_v1alpha1_StopContainerResponse__Output } from '../../../../nri/pkg/api/v1alpha1/StopContainerResponse.js';
import type { StopPodSandboxRequest as _nri_pkg_api_v1alpha1_StopPodSandboxRequest, StopPodSandboxRequest__Output as _nri_pkg_api_v1alpha1_StopPodSandboxRequest__Output } from '../../../../nri/pkg/api/v1alpha1/StopPodSandboxRequest.js';
import type { StopPodSandboxResponse as _nri_pkg_api_v1alpha1_StopPodSandboxResponse, StopPodSandboxResponse__Output as _nri_pkg_api_v1alpha1_StopPodSandboxResponse__Output } from '../../../../nri/pkg/api/v1alpha1/StopPodSandboxResponse.js';
import type { SynchronizeRequest as _nri_pkg_api_v1alpha1_SynchronizeRequest, SynchronizeRequest__Output as _nri_pkg_api_v1alpha1_SynchronizeRequest__Output } from '../../../../nri/pkg/api/v1alpha1/SynchronizeRequest.js';
import type { SynchronizeResponse as _nri_pkg_api_v1alpha1_SynchronizeResponse, SynchronizeResponse__Output as _nri_pkg_api_v1alpha1_SynchronizeResponse__Output } from '../../../../nri/pkg/api/v1alpha1/SynchronizeResponse.js';
import type { UpdateContainerRequest as _nri_pkg_api_v1alpha1_UpdateContainerRequest, UpdateContainerRequest__Output as _nri_pkg_api_v1alpha1_UpdateContainerRequest__Output } from '../../../../nri/pkg/api/v1alpha1/UpdateContainerRequest.js';
import type { UpdateContainerResponse as _nri_pkg_api_v1alpha1_UpdateContainerResponse, UpdateContainerResponse__Output as _nri_pkg_api_v1alpha1_UpdateContainerResponse__Output } from '../../../../nri/pkg/api/v1alpha1/UpdateContainerResponse.js';
import type { UpdatePodSandboxRequest as _nri_pkg_api_v1alpha1_UpdatePodSandboxRequest, UpdatePodSandboxRequest__Output as _nri_pkg_api_v1alpha1_UpdatePodSandboxRequest__Output } from '../../../../nri/pkg/api/v1alpha1/UpdatePodSandboxRequest.js';
import type { UpdatePodSandboxResponse as _nri_pkg_api_v1alpha1_UpdatePodSandboxResponse, UpdatePodSandboxResponse__Output as _nri_pkg_api_v1alpha1_UpdatePodSandboxResponse__Output } from '../../../../nri/pkg/api/v1alpha1/UpdatePodSandboxResponse.js';
import type { ValidateContainerAdjustmentRequest as _nri_pkg_api_v1alpha1_ValidateContainerAdjustmentRequest, ValidateContainerAdjustmentRequest__Output as _nri_pkg_api_v1alpha1_ValidateContainerAdjustmentRequest__Output } from '../../../../nri/pkg/api/v1alpha1/ValidateContainerAdjustmentRequest.js';
import type { ValidateContainerAdjustmentResponse as _nri_pkg_api_v1alpha1_ValidateContainerAdjustmentResponse, ValidateContainerAdjustmentResponse__Output as _nri_pkg_api_v1alpha1_ValidateContainerAdjustmentResponse__Output } from '../../../../nri/pkg/api/v1alpha1/ValidateContainerAdjustmentResponse.js';

export interface PluginClient extends grpc.Client {
  Configure(argument: _nri_pkg_api_v1alpha1_ConfigureRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_ConfigureResponse__Output>): grpc.ClientUnaryCall;
  Configure(argument: _nri_pkg_api_v1alpha1_ConfigureRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_ConfigureResponse__Output>): grpc.ClientUnaryCall;
  Configure(argument: _nri_pkg_api_v1alpha1_ConfigureRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_ConfigureResponse__Output>): grpc.ClientUnaryCall;
  Configure(argument: _nri_pkg_api_v1alpha1_ConfigureRequest, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_ConfigureResponse__Output>): grpc.ClientUnaryCall;
  configure(argument: _nri_pkg_api_v1alpha1_ConfigureRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_ConfigureResponse__Output>): grpc.ClientUnaryCall;
  configure(argument: _nri_pkg_api_v1alpha1_ConfigureRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_ConfigureResponse__Output>): grpc.ClientUnaryCall;
  configure(argument: _nri_pkg_api_v1alpha1_ConfigureRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_ConfigureResponse__Output>): grpc.ClientUnaryCall;
  configure(argument: _nri_pkg_api_v1alpha1_ConfigureRequest, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_ConfigureResponse__Output>): grpc.ClientUnaryCall;
  
  CreateContainer(argument: _nri_pkg_api_v1alpha1_CreateContainerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_CreateContainerResponse__Output>): grpc.ClientUnaryCall;
  CreateContainer(argument: _nri_pkg_api_v1alpha1_CreateContainerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_CreateContainerResponse__Output>): grpc.ClientUnaryCall;
  CreateContainer(argument: _nri_pkg_api_v1alpha1_CreateContainerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_CreateContainerResponse__Output>): grpc.ClientUnaryCall;
  CreateContainer(argument: _nri_pkg_api_v1alpha1_CreateContainerRequest, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_CreateContainerResponse__Output>): grpc.ClientUnaryCall;
  createContainer(argument: _nri_pkg_api_v1alpha1_CreateContainerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_CreateContainerResponse__Output>): grpc.ClientUnaryCall;
  createContainer(argument: _nri_pkg_api_v1alpha1_CreateContainerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_CreateContainerResponse__Output>): grpc.ClientUnaryCall;
  createContainer(argument: _nri_pkg_api_v1alpha1_CreateContainerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_CreateContainerResponse__Output>): grpc.ClientUnaryCall;
  createContainer(argument: _nri_pkg_api_v1alpha1_CreateContainerRequest, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_CreateContainerResponse__Output>): grpc.ClientUnaryCall;
  
  PostCreateContainer(argument: _nri_pkg_api_v1alpha1_PostCreateContainerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_PostCreateContainerResponse__Output>): grpc.ClientUnaryCall;
  PostCreateContainer(argument: _nri_pkg_api_v1alpha1_PostCreateContainerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_PostCreateContainerResponse__Output>): grpc.ClientUnaryCall;
  PostCreateContainer(argument: _nri_pkg_api_v1alpha1_PostCreateContainerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_PostCreateContainerResponse__Output>): grpc.ClientUnaryCall;
  PostCreateContainer(argument: _nri_pkg_api_v1alpha1_PostCreateContainerRequest, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_PostCreateContainerResponse__Output>): grpc.ClientUnaryCall;
  postCreateContainer(argument: _nri_pkg_api_v1alpha1_PostCreateContainerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_PostCreateContainerResponse__Output>): grpc.ClientUnaryCall;
  postCreateContainer(argument: _nri_pkg_api_v1alpha1_PostCreateContainerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_PostCreateContainerResponse__Output>): grpc.ClientUnaryCall;
  postCreateContainer(argument: _nri_pkg_api_v1alpha1_PostCreateContainerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_PostCreateContainerResponse__Output>): grpc.ClientUnaryCall;
  postCreateContainer(argument: _nri_pkg_api_v1alpha1_PostCreateContainerRequest, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_PostCreateContainerResponse__Output>): grpc.ClientUnaryCall;
  
  PostStartContainer(argument: _nri_pkg_api_v1alpha1_PostStartContainerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_PostStartContainerResponse__Output>): grpc.ClientUnaryCall;
  PostStartContainer(argument: _nri_pkg_api_v1alpha1_PostStartContainerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_PostStartContainerResponse__Output>): grpc.ClientUnaryCall;
  PostStartContainer(argument: _nri_pkg_api_v1alpha1_PostStartContainerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_PostStartContainerResponse__Output>): grpc.ClientUnaryCall;
  PostStartContainer(argument: _nri_pkg_api_v1alpha1_PostStartContainerRequest, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_PostStartContainerResponse__Output>): grpc.ClientUnaryCall;
  postStartContainer(argument: _nri_pkg_api_v1alpha1_PostStartContainerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_PostStartContainerResponse__Output>): grpc.ClientUnaryCall;
  postStartContainer(argument: _nri_pkg_api_v1alpha1_PostStartContainerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_PostStartContainerResponse__Output>): grpc.ClientUnaryCall;
  postStartContainer(argument: _nri_pkg_api_v1alpha1_PostStartContainerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_PostStartContainerResponse__Output>): grpc.ClientUnaryCall;
  postStartContainer(argument: _nri_pkg_api_v1alpha1_PostStartContainerRequest, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_PostStartContainerResponse__Output>): grpc.ClientUnaryCall;
  
  PostUpdateContainer(argument: _nri_pkg_api_v1alpha1_PostUpdateContainerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_PostUpdateContainerResponse__Output>): grpc.ClientUnaryCall;
  PostUpdateContainer(argument: _nri_pkg_api_v1alpha1_PostUpdateContainerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_PostUpdateContainerResponse__Output>): grpc.ClientUnaryCall;
  PostUpdateContainer(argument: _nri_pkg_api_v1alpha1_PostUpdateContainerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_PostUpdateContainerResponse__Output>): grpc.ClientUnaryCall;
  PostUpdateContainer(argument: _nri_pkg_api_v1alpha1_PostUpdateContainerRequest, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_PostUpdateContainerResponse__Output>): grpc.ClientUnaryCall;
  postUpdateContainer(argument: _nri_pkg_api_v1alpha1_PostUpdateContainerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_PostUpdateContainerResponse__Output>): grpc.ClientUnaryCall;
  postUpdateContainer(argument: _nri_pkg_api_v1alpha1_PostUpdateContainerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_PostUpdateContainerResponse__Output>): grpc.ClientUnaryCall;
  postUpdateContainer(argument: _nri_pkg_api_v1alpha1_PostUpdateContainerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_PostUpdateContainerResponse__Output>): grpc.ClientUnaryCall;
  postUpdateContainer(argument: _nri_pkg_api_v1alpha1_PostUpdateContainerRequest, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_PostUpdateContainerResponse__Output>): grpc.ClientUnaryCall;
  
  PostUpdatePodSandbox(argument: _nri_pkg_api_v1alpha1_PostUpdatePodSandboxRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_PostUpdatePodSandboxResponse__Output>): grpc.ClientUnaryCall;
  PostUpdatePodSandbox(argument: _nri_pkg_api_v1alpha1_PostUpdatePodSandboxRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_PostUpdatePodSandboxResponse__Output>): grpc.ClientUnaryCall;
  PostUpdatePodSandbox(argument: _nri_pkg_api_v1alpha1_PostUpdatePodSandboxRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_PostUpdatePodSandboxResponse__Output>): grpc.ClientUnaryCall;
  PostUpdatePodSandbox(argument: _nri_pkg_api_v1alpha1_PostUpdatePodSandboxRequest, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_PostUpdatePodSandboxResponse__Output>): grpc.ClientUnaryCall;
  postUpdatePodSandbox(argument: _nri_pkg_api_v1alpha1_PostUpdatePodSandboxRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_PostUpdatePodSandboxResponse__Output>): grpc.ClientUnaryCall;
  postUpdatePodSandbox(argument: _nri_pkg_api_v1alpha1_PostUpdatePodSandboxRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_PostUpdatePodSandboxResponse__Output>): grpc.ClientUnaryCall;
  postUpdatePodSandbox(argument: _nri_pkg_api_v1alpha1_PostUpdatePodSandboxRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_PostUpdatePodSandboxResponse__Output>): grpc.ClientUnaryCall;
  postUpdatePodSandbox(argument: _nri_pkg_api_v1alpha1_PostUpdatePodSandboxRequest, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_PostUpdatePodSandboxResponse__Output>): grpc.ClientUnaryCall;
  
  RemoveContainer(argument: _nri_pkg_api_v1alpha1_RemoveContainerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_RemoveContainerResponse__Output>): grpc.ClientUnaryCall;
  RemoveContainer(argument: _nri_pkg_api_v1alpha1_RemoveContainerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_RemoveContainerResponse__Output>): grpc.ClientUnaryCall;
  RemoveContainer(argument: _nri_pkg_api_v1alpha1_RemoveContainerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_RemoveContainerResponse__Output>): grpc.ClientUnaryCall;
  RemoveContainer(argument: _nri_pkg_api_v1alpha1_RemoveContainerRequest, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_RemoveContainerResponse__Output>): grpc.ClientUnaryCall;
  removeContainer(argument: _nri_pkg_api_v1alpha1_RemoveContainerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_RemoveContainerResponse__Output>): grpc.ClientUnaryCall;
  removeContainer(argument: _nri_pkg_api_v1alpha1_RemoveContainerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_RemoveContainerResponse__Output>): grpc.ClientUnaryCall;
  removeContainer(argument: _nri_pkg_api_v1alpha1_RemoveContainerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_RemoveContainerResponse__Output>): grpc.ClientUnaryCall;
  removeContainer(argument: _nri_pkg_api_v1alpha1_RemoveContainerRequest, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_RemoveContainerResponse__Output>): grpc.ClientUnaryCall;
  
  RemovePodSandbox(argument: _nri_pkg_api_v1alpha1_RemovePodSandboxRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_RemovePodSandboxResponse__Output>): grpc.ClientUnaryCall;
  RemovePodSandbox(argument: _nri_pkg_api_v1alpha1_RemovePodSandboxRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_RemovePodSandboxResponse__Output>): grpc.ClientUnaryCall;
  RemovePodSandbox(argument: _nri_pkg_api_v1alpha1_RemovePodSandboxRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_RemovePodSandboxResponse__Output>): grpc.ClientUnaryCall;
  RemovePodSandbox(argument: _nri_pkg_api_v1alpha1_RemovePodSandboxRequest, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_RemovePodSandboxResponse__Output>): grpc.ClientUnaryCall;
  removePodSandbox(argument: _nri_pkg_api_v1alpha1_RemovePodSandboxRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_RemovePodSandboxResponse__Output>): grpc.ClientUnaryCall;
  removePodSandbox(argument: _nri_pkg_api_v1alpha1_RemovePodSandboxRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_RemovePodSandboxResponse__Output>): grpc.ClientUnaryCall;
  removePodSandbox(argument: _nri_pkg_api_v1alpha1_RemovePodSandboxRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_RemovePodSandboxResponse__Output>): grpc.ClientUnaryCall;
  removePodSandbox(argument: _nri_pkg_api_v1alpha1_RemovePodSandboxRequest, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_RemovePodSandboxResponse__Output>): grpc.ClientUnaryCall;
  
  RunPodSandbox(argument: _nri_pkg_api_v1alpha1_RunPodSandboxRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_RunPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  RunPodSandbox(argument: _nri_pkg_api_v1alpha1_RunPodSandboxRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_RunPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  RunPodSandbox(argument: _nri_pkg_api_v1alpha1_RunPodSandboxRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_RunPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  RunPodSandbox(argument: _nri_pkg_api_v1alpha1_RunPodSandboxRequest, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_RunPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  runPodSandbox(argument: _nri_pkg_api_v1alpha1_RunPodSandboxRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_RunPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  runPodSandbox(argument: _nri_pkg_api_v1alpha1_RunPodSandboxRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_RunPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  runPodSandbox(argument: _nri_pkg_api_v1alpha1_RunPodSandboxRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_RunPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  runPodSandbox(argument: _nri_pkg_api_v1alpha1_RunPodSandboxRequest, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_RunPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  
  Shutdown(argument: _nri_pkg_api_v1alpha1_Empty, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_Empty__Output>): grpc.ClientUnaryCall;
  Shutdown(argument: _nri_pkg_api_v1alpha1_Empty, metadata: grpc.Metadata, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_Empty__Output>): grpc.ClientUnaryCall;
  Shutdown(argument: _nri_pkg_api_v1alpha1_Empty, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_Empty__Output>): grpc.ClientUnaryCall;
  Shutdown(argument: _nri_pkg_api_v1alpha1_Empty, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_Empty__Output>): grpc.ClientUnaryCall;
  shutdown(argument: _nri_pkg_api_v1alpha1_Empty, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_Empty__Output>): grpc.ClientUnaryCall;
  shutdown(argument: _nri_pkg_api_v1alpha1_Empty, metadata: grpc.Metadata, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_Empty__Output>): grpc.ClientUnaryCall;
  shutdown(argument: _nri_pkg_api_v1alpha1_Empty, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_Empty__Output>): grpc.ClientUnaryCall;
  shutdown(argument: _nri_pkg_api_v1alpha1_Empty, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_Empty__Output>): grpc.ClientUnaryCall;
  
  StartContainer(argument: _nri_pkg_api_v1alpha1_StartContainerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_StartContainerResponse__Output>): grpc.ClientUnaryCall;
  StartContainer(argument: _nri_pkg_api_v1alpha1_StartContainerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_StartContainerResponse__Output>): grpc.ClientUnaryCall;
  StartContainer(argument: _nri_pkg_api_v1alpha1_StartContainerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_StartContainerResponse__Output>): grpc.ClientUnaryCall;
  StartContainer(argument: _nri_pkg_api_v1alpha1_StartContainerRequest, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_StartContainerResponse__Output>): grpc.ClientUnaryCall;
  startContainer(argument: _nri_pkg_api_v1alpha1_StartContainerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_StartContainerResponse__Output>): grpc.ClientUnaryCall;
  startContainer(argument: _nri_pkg_api_v1alpha1_StartContainerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_StartContainerResponse__Output>): grpc.ClientUnaryCall;
  startContainer(argument: _nri_pkg_api_v1alpha1_StartContainerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_StartContainerResponse__Output>): grpc.ClientUnaryCall;
  startContainer(argument: _nri_pkg_api_v1alpha1_StartContainerRequest, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_StartContainerResponse__Output>): grpc.ClientUnaryCall;
  
  StateChange(argument: _nri_pkg_api_v1alpha1_StateChangeEvent, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_Empty__Output>): grpc.ClientUnaryCall;
  StateChange(argument: _nri_pkg_api_v1alpha1_StateChangeEvent, metadata: grpc.Metadata, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_Empty__Output>): grpc.ClientUnaryCall;
  StateChange(argument: _nri_pkg_api_v1alpha1_StateChangeEvent, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_Empty__Output>): grpc.ClientUnaryCall;
  StateChange(argument: _nri_pkg_api_v1alpha1_StateChangeEvent, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_Empty__Output>): grpc.ClientUnaryCall;
  stateChange(argument: _nri_pkg_api_v1alpha1_StateChangeEvent, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_Empty__Output>): grpc.ClientUnaryCall;
  stateChange(argument: _nri_pkg_api_v1alpha1_StateChangeEvent, metadata: grpc.Metadata, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_Empty__Output>): grpc.ClientUnaryCall;
  stateChange(argument: _nri_pkg_api_v1alpha1_StateChangeEvent, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_Empty__Output>): grpc.ClientUnaryCall;
  stateChange(argument: _nri_pkg_api_v1alpha1_StateChangeEvent, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_Empty__Output>): grpc.ClientUnaryCall;
  
  StopContainer(argument: _nri_pkg_api_v1alpha1_StopContainerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_StopContainerResponse__Output>): grpc.ClientUnaryCall;
  StopContainer(argument: _nri_pkg_api_v1alpha1_StopContainerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_StopContainerResponse__Output>): grpc.ClientUnaryCall;
  StopContainer(argument: _nri_pkg_api_v1alpha1_StopContainerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_StopContainerResponse__Output>): grpc.ClientUnaryCall;
  StopContainer(argument: _nri_pkg_api_v1alpha1_StopContainerRequest, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_StopContainerResponse__Output>): grpc.ClientUnaryCall;
  stopContainer(argument: _nri_pkg_api_v1alpha1_StopContainerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_StopContainerResponse__Output>): grpc.ClientUnaryCall;
  stopContainer(argument: _nri_pkg_api_v1alpha1_StopContainerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_StopContainerResponse__Output>): grpc.ClientUnaryCall;
  stopContainer(argument: _nri_pkg_api_v1alpha1_StopContainerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_StopContainerResponse__Output>): grpc.ClientUnaryCall;
  stopContainer(argument: _nri_pkg_api_v1alpha1_StopContainerRequest, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_StopContainerResponse__Output>): grpc.ClientUnaryCall;
  
  StopPodSandbox(argument: _nri_pkg_api_v1alpha1_StopPodSandboxRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_StopPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  StopPodSandbox(argument: _nri_pkg_api_v1alpha1_StopPodSandboxRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_StopPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  StopPodSandbox(argument: _nri_pkg_api_v1alpha1_StopPodSandboxRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_StopPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  StopPodSandbox(argument: _nri_pkg_api_v1alpha1_StopPodSandboxRequest, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_StopPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  stopPodSandbox(argument: _nri_pkg_api_v1alpha1_StopPodSandboxRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_StopPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  stopPodSandbox(argument: _nri_pkg_api_v1alpha1_StopPodSandboxRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_StopPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  stopPodSandbox(argument: _nri_pkg_api_v1alpha1_StopPodSandboxRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_StopPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  stopPodSandbox(argument: _nri_pkg_api_v1alpha1_StopPodSandboxRequest, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_StopPodSandboxResponse__Output>): grpc.ClientUnaryCall;
  
  Synchronize(argument: _nri_pkg_api_v1alpha1_SynchronizeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_SynchronizeResponse__Output>): grpc.ClientUnaryCall;
  Synchronize(argument: _nri_pkg_api_v1alpha1_SynchronizeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_SynchronizeResponse__Output>): grpc.ClientUnaryCall;
  Synchronize(argument: _nri_pkg_api_v1alpha1_SynchronizeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_SynchronizeResponse__Output>): grpc.ClientUnaryCall;
  Synchronize(argument: _nri_pkg_api_v1alpha1_SynchronizeRequest, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_SynchronizeResponse__Output>): grpc.ClientUnaryCall;
  synchronize(argument: _nri_pkg_api_v1alpha1_SynchronizeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_SynchronizeResponse__Output>): grpc.ClientUnaryCall;
  synchronize(argument: _nri_pkg_api_v1alpha1_SynchronizeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_SynchronizeResponse__Output>): grpc.ClientUnaryCall;
  synchronize(argument: _nri_pkg_api_v1alpha1_SynchronizeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_SynchronizeResponse__Output>): grpc.ClientUnaryCall;
  synchronize(argument: _nri_pkg_api_v1alpha1_SynchronizeRequest, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_SynchronizeResponse__Output>): grpc.ClientUnaryCall;
  
  UpdateContainer(argument: _nri_pkg_api_v1alpha1_UpdateContainerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_UpdateContainerResponse__Output>): grpc.ClientUnaryCall;
  UpdateContainer(argument: _nri_pkg_api_v1alpha1_UpdateContainerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_UpdateContainerResponse__Output>): grpc.ClientUnaryCall;
  UpdateContainer(argument: _nri_pkg_api_v1alpha1_UpdateContainerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_UpdateContainerResponse__Output>): grpc.ClientUnaryCall;
  UpdateContainer(argument: _nri_pkg_api_v1alpha1_UpdateContainerRequest, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_UpdateContainerResponse__Output>): grpc.ClientUnaryCall;
  updateContainer(argument: _nri_pkg_api_v1alpha1_UpdateContainerRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_UpdateContainerResponse__Output>): grpc.ClientUnaryCall;
  updateContainer(argument: _nri_pkg_api_v1alpha1_UpdateContainerRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_UpdateContainerResponse__Output>): grpc.ClientUnaryCall;
  updateContainer(argument: _nri_pkg_api_v1alpha1_UpdateContainerRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_UpdateContainerResponse__Output>): grpc.ClientUnaryCall;
  updateContainer(argument: _nri_pkg_api_v1alpha1_UpdateContainerRequest, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_UpdateContainerResponse__Output>): grpc.ClientUnaryCall;
  
  UpdatePodSandbox(argument: _nri_pkg_api_v1alpha1_UpdatePodSandboxRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_UpdatePodSandboxResponse__Output>): grpc.ClientUnaryCall;
  UpdatePodSandbox(argument: _nri_pkg_api_v1alpha1_UpdatePodSandboxRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_UpdatePodSandboxResponse__Output>): grpc.ClientUnaryCall;
  UpdatePodSandbox(argument: _nri_pkg_api_v1alpha1_UpdatePodSandboxRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_UpdatePodSandboxResponse__Output>): grpc.ClientUnaryCall;
  UpdatePodSandbox(argument: _nri_pkg_api_v1alpha1_UpdatePodSandboxRequest, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_UpdatePodSandboxResponse__Output>): grpc.ClientUnaryCall;
  updatePodSandbox(argument: _nri_pkg_api_v1alpha1_UpdatePodSandboxRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_UpdatePodSandboxResponse__Output>): grpc.ClientUnaryCall;
  updatePodSandbox(argument: _nri_pkg_api_v1alpha1_UpdatePodSandboxRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_UpdatePodSandboxResponse__Output>): grpc.ClientUnaryCall;
  updatePodSandbox(argument: _nri_pkg_api_v1alpha1_UpdatePodSandboxRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_UpdatePodSandboxResponse__Output>): grpc.ClientUnaryCall;
  updatePodSandbox(argument: _nri_pkg_api_v1alpha1_UpdatePodSandboxRequest, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_UpdatePodSandboxResponse__Output>): grpc.ClientUnaryCall;
  
  ValidateContainerAdjustment(argument: _nri_pkg_api_v1alpha1_ValidateContainerAdjustmentRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_ValidateContainerAdjustmentResponse__Output>): grpc.ClientUnaryCall;
  ValidateContainerAdjustment(argument: _nri_pkg_api_v1alpha1_ValidateContainerAdjustmentRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_ValidateContainerAdjustmentResponse__Output>): grpc.ClientUnaryCall;
  ValidateContainerAdjustment(argument: _nri_pkg_api_v1alpha1_ValidateContainerAdjustmentRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_ValidateContainerAdjustmentResponse__Output>): grpc.ClientUnaryCall;
  ValidateContainerAdjustment(argument: _nri_pkg_api_v1alpha1_ValidateContainerAdjustmentRequest, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_ValidateContainerAdjustmentResponse__Output>): grpc.ClientUnaryCall;
  validateContainerAdjustment(argument: _nri_pkg_api_v1alpha1_ValidateContainerAdjustmentRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_ValidateContainerAdjustmentResponse__Output>): grpc.ClientUnaryCall;
  validateContainerAdjustment(argument: _nri_pkg_api_v1alpha1_ValidateContainerAdjustmentRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_ValidateContainerAdjustmentResponse__Output>): grpc.ClientUnaryCall;
  validateContainerAdjustment(argument: _nri_pkg_api_v1alpha1_ValidateContainerAdjustmentRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_ValidateContainerAdjustmentResponse__Output>): grpc.ClientUnaryCall;
  validateContainerAdjustment(argument: _nri_pkg_api_v1alpha1_ValidateContainerAdjustmentRequest, callback: grpc.requestCallback<_nri_pkg_api_v1alpha1_ValidateContainerAdjustmentResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface PluginHandlers extends grpc.UntypedServiceImplementation {
  Configure: grpc.handleUnaryCall<_nri_pkg_api_v1alpha1_ConfigureRequest__Output, _nri_pkg_api_v1alpha1_ConfigureResponse>;
  
  CreateContainer: grpc.handleUnaryCall<_nri_pkg_api_v1alpha1_CreateContainerRequest__Output, _nri_pkg_api_v1alpha1_CreateContainerResponse>;
  
  PostCreateContainer: grpc.handleUnaryCall<_nri_pkg_api_v1alpha1_PostCreateContainerRequest__Output, _nri_pkg_api_v1alpha1_PostCreateContainerResponse>;
  
  PostStartContainer: grpc.handleUnaryCall<_nri_pkg_api_v1alpha1_PostStartContainerRequest__Output, _nri_pkg_api_v1alpha1_PostStartContainerResponse>;
  
  PostUpdateContainer: grpc.handleUnaryCall<_nri_pkg_api_v1alpha1_PostUpdateContainerRequest__Output, _nri_pkg_api_v1alpha1_PostUpdateContainerResponse>;
  
  PostUpdatePodSandbox: grpc.handleUnaryCall<_nri_pkg_api_v1alpha1_PostUpdatePodSandboxRequest__Output, _nri_pkg_api_v1alpha1_PostUpdatePodSandboxResponse>;
  
  RemoveContainer: grpc.handleUnaryCall<_nri_pkg_api_v1alpha1_RemoveContainerRequest__Output, _nri_pkg_api_v1alpha1_RemoveContainerResponse>;
  
  RemovePodSandbox: grpc.handleUnaryCall<_nri_pkg_api_v1alpha1_RemovePodSandboxRequest__Output, _nri_pkg_api_v1alpha1_RemovePodSandboxResponse>;
  
  RunPodSandbox: grpc.handleUnaryCall<_nri_pkg_api_v1alpha1_RunPodSandboxRequest__Output, _nri_pkg_api_v1alpha1_RunPodSandboxResponse>;
  
  Shutdown: grpc.handleUnaryCall<_nri_pkg_api_v1alpha1_Empty__Output, _nri_pkg_api_v1alpha1_Empty>;
  
  StartContainer: grpc.handleUnaryCall<_nri_pkg_api_v1alpha1_StartContainerRequest__Output, _nri_pkg_api_v1alpha1_StartContainerResponse>;
  
  StateChange: grpc.handleUnaryCall<_nri_pkg_api_v1alpha1_StateChangeEvent__Output, _nri_pkg_api_v1alpha1_Empty>;
  
  StopContainer: grpc.handleUnaryCall<_nri_pkg_api_v1alpha1_StopContainerRequest__Output, _nri_pkg_api_v1alpha1_StopContainerResponse>;
  
  StopPodSandbox: grpc.handleUnaryCall<_nri_pkg_api_v1alpha1_StopPodSandboxRequest__Output, _nri_pkg_api_v1alpha1_StopPodSandboxResponse>;
  
  Synchronize: grpc.handleUnaryCall<_nri_pkg_api_v1alpha1_SynchronizeRequest__Output, _nri_pkg_api_v1alpha1_SynchronizeResponse>;
  
  UpdateContainer: grpc.handleUnaryCall<_nri_pkg_api_v1alpha1_UpdateContainerRequest__Output, _nri_pkg_api_v1alpha1_UpdateContainerResponse>;
  
  UpdatePodSandbox: grpc.handleUnaryCall<_nri_pkg_api_v1alpha1_UpdatePodSandboxRequest__Output, _nri_pkg_api_v1alpha1_UpdatePodSandboxResponse>;
  
  ValidateContainerAdjustment: grpc.handleUnaryCall<_nri_pkg_api_v1alpha1_ValidateContainerAdjustmentRequest__Output, _nri_pkg_api_v1alpha1_ValidateContainerAdjustmentResponse>;
  
}

export interface PluginDefinition extends grpc.ServiceDefinition {
  Configure: MethodDefinition<_nri_pkg_api_v1alpha1_ConfigureRequest, _nri_pkg_api_v1alpha1_ConfigureResponse, _nri_pkg_api_v1alpha1_ConfigureRequest__Output, _nri_pkg_api_v1alpha1_ConfigureResponse__Output>
  CreateContainer: MethodDefinition<_nri_pkg_api_v1alpha1_CreateContainerRequest, _nri_pkg_api_v1alpha1_CreateContainerResponse, _nri_pkg_api_v1alpha1_CreateContainerRequest__Output, _nri_pkg_api_v1alpha1_CreateContainerResponse__Output>
  PostCreateContainer: MethodDefinition<_nri_pkg_api_v1alpha1_PostCreateContainerRequest, _nri_pkg_api_v1alpha1_PostCreateContainerResponse, _nri_pkg_api_v1alpha1_PostCreateContainerRequest__Output, _nri_pkg_api_v1alpha1_PostCreateContainerResponse__Output>
  PostStartContainer: MethodDefinition<_nri_pkg_api_v1alpha1_PostStartContainerRequest, _nri_pkg_api_v1alpha1_PostStartContainerResponse, _nri_pkg_api_v1alpha1_PostStartContainerRequest__Output, _nri_pkg_api_v1alpha1_PostStartContainerResponse__Output>
  PostUpdateContainer: MethodDefinition<_nri_pkg_api_v1alpha1_PostUpdateContainerRequest, _nri_pkg_api_v1alpha1_PostUpdateContainerResponse, _nri_pkg_api_v1alpha1_PostUpdateContainerRequest__Output, _nri_pkg_api_v1alpha1_PostUpdateContainerResponse__Output>
  PostUpdatePodSandbox: MethodDefinition<_nri_pkg_api_v1alpha1_PostUpdatePodSandboxRequest, _nri_pkg_api_v1alpha1_PostUpdatePodSandboxResponse, _nri_pkg_api_v1alpha1_PostUpdatePodSandboxRequest__Output, _nri_pkg_api_v1alpha1_PostUpdatePodSandboxResponse__Output>
  RemoveContainer: MethodDefinition<_nri_pkg_api_v1alpha1_RemoveContainerRequest, _nri_pkg_api_v1alpha1_RemoveContainerResponse, _nri_pkg_api_v1alpha1_RemoveContainerRequest__Output, _nri_pkg_api_v1alpha1_RemoveContainerResponse__Output>
  RemovePodSandbox: MethodDefinition<_nri_pkg_api_v1alpha1_RemovePodSandboxRequest, _nri_pkg_api_v1alpha1_RemovePodSandboxResponse, _nri_pkg_api_v1alpha1_RemovePodSandboxRequest__Output, _nri_pkg_api_v1alpha1_RemovePodSandboxResponse__Output>
  RunPodSandbox: MethodDefinition<_nri_pkg_api_v1alpha1_RunPodSandboxRequest, _nri_pkg_api_v1alpha1_RunPodSandboxResponse, _nri_pkg_api_v1alpha1_RunPodSandboxRequest__Output, _nri_pkg_api_v1alpha1_RunPodSandboxResponse__Output>
  Shutdown: MethodDefinition<_nri_pkg_api_v1alpha1_Empty, _nri_pkg_api_v1alpha1_Empty, _nri_pkg_api_v1alpha1_Empty__Output, _nri_pkg_api_v1alpha1_Empty__Output>
  StartContainer: MethodDefinition<_nri_pkg_api_v1alpha1_StartContainerRequest, _nri_pkg_api_v1alpha1_StartContainerResponse, _nri_pkg_api_v1alpha1_StartContainerRequest__Output, _nri_pkg_api_v1alpha1_StartContainerResponse__Output>
  StateChange: MethodDefinition<_nri_pkg_api_v1alpha1_StateChangeEvent, _nri_pkg_api_v1alpha1_Empty, _nri_pkg_api_v1alpha1_StateChangeEvent__Output, _nri_pkg_api_v1alpha1_Empty__Output>
  StopContainer: MethodDefinition<_nri_pkg_api_v1alpha1_StopContainerRequest, _nri_pkg_api_v1alpha1_StopContainerResponse, _nri_pkg_api_v1alpha1_StopContainerRequest__Output, _nri_pkg_api_v1alpha1_StopContainerResponse__Output>
  StopPodSandbox: MethodDefinition<_nri_pkg_api_v1alpha1_StopPodSandboxRequest, _nri_pkg_api_v1alpha1_StopPodSandboxResponse, _nri_pkg_api_v1alpha1_StopPodSandboxRequest__Output, _nri_pkg_api_v1alpha1_StopPodSandboxResponse__Output>
  Synchronize: MethodDefinition<_nri_pkg_api_v1alpha1_SynchronizeRequest, _nri_pkg_api_v1alpha1_SynchronizeResponse, _nri_pkg_api_v1alpha1_SynchronizeRequest__Output, _nri_pkg_api_v1alpha1_SynchronizeResponse__Output>
  UpdateContainer: MethodDefinition<_nri_pkg_api_v1alpha1_UpdateContainerRequest, _nri_pkg_api_v1alpha1_UpdateContainerResponse, _nri_pkg_api_v1alpha1_UpdateContainerRequest__Output, _nri_pkg_api_v1alpha1_UpdateContainerResponse__Output>
  UpdatePodSandbox: MethodDefinition<_nri_pkg_api_v1alpha1_UpdatePodSandboxRequest, _nri_pkg_api_v1alpha1_UpdatePodSandboxResponse, _nri_pkg_api_v1alpha1_UpdatePodSandboxRequest__Output, _nri_pkg_api_v1alpha1_UpdatePodSandboxResponse__Output>
  ValidateContainerAdjustment: MethodDefinition<_nri_pkg_api_v1alpha1_ValidateContainerAdjustmentRequest, _nri_pkg_api_v1alpha1_ValidateContainerAdjustmentResponse, _nri_pkg_api_v1alpha1_ValidateContainerAdjustmentRequest__Output, _nri_pkg_api_v1alpha1_ValidateContainerAdjustmentResponse__Output>
}
