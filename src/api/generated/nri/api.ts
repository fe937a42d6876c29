import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { CDIDevice as _nri_pkg_api_v1alpha1_CDIDevice, CDIDevice__Output as _nri_pkg_api_v1alpha1_CDIDevice__Output } from './nri/pkg/api/v1alpha1/CDIDevice.js';
import type { CompoundFieldOwners as _nri_pkg_api_v1alpha1_CompoundFieldOwners, CompoundFieldOwners__Output as _nri_pkg_api_v1alpha1_CompoundFieldOwners__Output } from './nri/pkg/api/v1alpha1/CompoundFieldOwners.js';
import type { ConfigureRequest as _nri_pkg_api_v1alpha1_ConfigureRequest, ConfigureRequest__Output as _nri_pkg_api_v1alpha1_ConfigureRequest__Output } from './nri/pkg/api/v1alpha1/ConfigureRequest.js';
import type { ConfigureResponse as _nri_pkg_api_v1alpha1_ConfigureResponse, ConfigureResponse__Output as _nri_pkg_api_v1alpha1_ConfigureResponse__Output } from './nri/pkg/api/v1alpha1/ConfigureResponse.js';
import type { Container as _nri_pkg_api_v1alpha1_Container, Container__Output as _nri_pkg_api_v1alpha1_Container__Output } from './nri/pkg/api/v1alpha1/Container.js';
import type { ContainerAdjustment as _nri_pkg_api_v1alpha1_ContainerAdjustment, ContainerAdjustment__Output as _nri_pkg_api_v1alpha1_ContainerAdjustment__Output } from './nri/pkg/api/v1alpha1/ContainerAdjustment.js';
import type { ContainerEviction as _nri_pkg_api_v1alpha1_ContainerEviction, ContainerEviction__Output as _nri_pkg_api_v1alpha1_ContainerEviction__Output } from './nri/pkg/api/v1alpha1/ContainerEviction.js';
import type { ContainerUpdate as _nri_pkg_api_v1alpha1_ContainerUpdate, ContainerUpdate__Output as _nri_pkg_api_v1alpha1_ContainerUpdate__Output } from './nri/pkg/api/v1alpha1/ContainerUpdate.js';
import type { CreateContainerRequest as _nri_pkg_api_v1alpha1_CreateContainerRequest, CreateContainerRequest__Output as _nri_pkg_api_v1alpha1_CreateContainerRequest__Output } from './nri/pkg/api/v1alpha1/CreateContainerRequest.js';
import type { CreateContainerResponse as _nri_pkg_api_v1alpha1_CreateContainerResponse, CreateContainerResponse__Output as _nri_pkg_api_v1alpha1_CreateContainerResponse__Output } from './nri/pkg/api/v1alpha1/CreateContainerResponse.js';
import type { Empty as _nri_pkg_api_v1alpha1_Empty, Empty__Output as _nri_pkg_api_v1alpha1_Empty__Output } from './nri/pkg/api/v1alpha1/Empty.js';
import type { FieldOwners as _nri_pkg_api_v1alpha1_FieldOwners, FieldOwners__Output as _nri_pkg_api_v1alpha1_FieldOwners__Output } from './nri/pkg/api/v1alpha1/FieldOwners.js';
import type { Hook as _nri_pkg_api_v1alpha1_Hook, Hook__Output as _nri_pkg_api_v1alpha1_Hook__Output } from './nri/pkg/api/v1alpha1/Hook.js';
import type { Hooks as _nri_pkg_api_v1alpha1_Hooks, Hooks__Output as _nri_pkg_api_v1alpha1_Hooks__Output } from './nri/pkg/api/v1alpha1/Hooks.js';
import type { HostFunctionsClient as _nri_pkg_api_v1alpha1_HostFunctionsClient, HostFunctionsDefinition as _nri_pkg_api_v1alpha1_HostFunctionsDefinition } from './nri/pkg/api/v1alpha1/HostFunctions.js';
import type { HugepageLimit as _nri_pkg_api_v1alpha1_HugepageLimit, HugepageLimit__Output as _nri_pkg_api_v1alpha1_HugepageLimit__Output } from './nri/pkg/api/v1alpha1/HugepageLimit.js';
import type { Image as _nri_pkg_api_v1alpha1_Image, Image__Output as _nri_pkg_api_v1alpha1_Image__Output } from './nri/pkg/api/v1alpha1/Image.js';
import type { KeyValue as _nri_pkg_api_v1alpha1_KeyValue, KeyValue__Output as _nri_pkg_api_v1alpha1_KeyValue__Output } from './nri/pkg/api/v1alpha1/KeyValue.js';
import type { LinuxCPU as _nri_pkg_api_v1alpha1_LinuxCPU, LinuxCPU__Output as _nri_pkg_api_v1alpha1_LinuxCPU__Output } from './nri/pkg/api/v1alpha1/LinuxCPU.js';
import type { LinuxContainer as _nri_pkg_api_v1alpha1_LinuxContainer, LinuxContainer__Output as _nri_pkg_api_v1alpha1_LinuxContainer__Output } from './nri/pkg/api/v1alpha1/LinuxContainer.js';
import type { LinuxContainerAdjustment as _nri_pkg_api_v1alpha1_LinuxContainerAdjustment, LinuxContainerAdjustment__Output as _nri_pkg_api_v1alpha1_LinuxContainerAdjustment__Output } from './nri/pkg/api/v1alpha1/LinuxContainerAdjustment.js';
import type { LinuxContainerUpdate as _nri_pkg_api_v1alpha1_LinuxContainerUpdate, LinuxContainerUpdate__Output as _nri_pkg_api_v1alpha1_LinuxContainerUpdate__Output } from './nri/pkg/api/v1alpha1/LinuxContainerUpdate.js';
import type { LinuxDevice as _nri_pkg_api_v1alpha1_LinuxDevice, LinuxDevice__Output as _nri_pkg_api_v1alpha1_LinuxDevice__Output } from './nri/pkg/api/v1alpha1/LinuxDevice.js';
import type { LinuxDeviceCgroup as _nri_pkg_api_v1alpha1_LinuxDeviceCgroup, LinuxDeviceCgroup__Output as _nri_pkg_api_v1alpha1_LinuxDeviceCgroup__Output } from './nri/pkg/api/v1alpha1/LinuxDeviceCgroup.js';
import type { LinuxIOPriority as _nri_pkg_api_v1alpha1_LinuxIOPriority, LinuxIOPriority__Output as _nri_pkg_api_v1alpha1_LinuxIOPriority__Output } from './nri/pkg/api/v1alpha1/LinuxIOPriority.js';
import type { LinuxMemory as _nri_pkg_api_v1alpha1_LinuxMemory, LinuxMemory__Output as _nri_pkg_api_v1alpha1_LinuxMemory__Output } from './nri/pkg/api/v1alpha1/LinuxMemory.js';
import type { LinuxMemoryPolicy as _nri_pkg_api_v1alpha1_LinuxMemoryPolicy, LinuxMemoryPolicy__Output as _nri_pkg_api_v1alpha1_LinuxMemoryPolicy__Output } from './nri/pkg/api/v1alpha1/LinuxMemoryPolicy.js';
import type { LinuxNamespace as _nri_pkg_api_v1alpha1_LinuxNamespace, LinuxNamespace__Output as _nri_pkg_api_v1alpha1_LinuxNamespace__Output } from './nri/pkg/api/v1alpha1/LinuxNamespace.js';
import type { LinuxNetDevice as _nri_pkg_api_v1alpha1_LinuxNetDevice, LinuxNetDevice__Output as _nri_pkg_api_v1alpha1_LinuxNetDevice__Output } from './nri/pkg/api/v1alpha1/LinuxNetDevice.js';
import type { LinuxPids as _nri_pkg_api_v1alpha1_LinuxPids, LinuxPids__Output as _nri_pkg_api_v1alpha1_LinuxPids__Output } from './nri/pkg/api/v1alpha1/LinuxPids.js';
import type { LinuxPodSandbox as _nri_pkg_api_v1alpha1_LinuxPodSandbox, LinuxPodSandbox__Output as _nri_pkg_api_v1alpha1_LinuxPodSandbox__Output } from './nri/pkg/api/v1alpha1/LinuxPodSandbox.js';
import type { LinuxRdt as _nri_pkg_api_v1alpha1_LinuxRdt, LinuxRdt__Output as _nri_pkg_api_v1alpha1_LinuxRdt__Output } from './nri/pkg/api/v1alpha1/LinuxRdt.js';
import type { LinuxResources as _nri_pkg_api_v1alpha1_LinuxResources, LinuxResources__Output as _nri_pkg_api_v1alpha1_LinuxResources__Output } from './nri/pkg/api/v1alpha1/LinuxResources.js';
import type { LinuxScheduler as _nri_pkg_api_v1alpha1_LinuxScheduler, LinuxScheduler__Output as _nri_pkg_api_v1alpha1_LinuxScheduler__Output } from './nri/pkg/api/v1alpha1/LinuxScheduler.js';
import type { LinuxSeccomp as _nri_pkg_api_v1alpha1_LinuxSeccomp, LinuxSeccomp__Output as _nri_pkg_api_v1alpha1_LinuxSeccomp__Output } from './nri/pkg/api/v1alpha1/LinuxSeccomp.js';
import type { LinuxSeccompArg as _nri_pkg_api_v1alpha1_LinuxSeccompArg, LinuxSeccompArg__Output as _nri_pkg_api_v1alpha1_LinuxSeccompArg__Output } from './nri/pkg/api/v1alpha1/LinuxSeccompArg.js';
import type { LinuxSyscall as _nri_pkg_api_v1alpha1_LinuxSyscall, LinuxSyscall__Output as _nri_pkg_api_v1alpha1_LinuxSyscall__Output } from './nri/pkg/api/v1alpha1/LinuxSyscall.js';
import type { LogRequest as _nri_pkg_api_v1alpha1_LogRequest, LogRequest__Output as _nri_pkg_api_v1alpha1_LogRequest__Output } from './nri/pkg/api/v1alpha1/LogRequest.js';
import type { Mount as _nri_pkg_api_v1alpha1_Mount, Mount__Output as _nri_pkg_api_v1alpha1_Mount__Output } from './nri/pkg/api/v1alpha1/Mount.js';
import type { OptionalBool as _nri_pkg_api_v1alpha1_OptionalBool, OptionalBool__Output as _nri_pkg_api_v1alpha1_OptionalBool__Output } from './nri/pkg/api/v1alpha1/OptionalBool.js';
import type { OptionalFileMode as _nri_pkg_api_v1alpha1_OptionalFileMode, OptionalFileMode__Output as _nri_pkg_api_v1alpha1_OptionalFileMode__Output } from './nri/pkg/api/v1alpha1/OptionalFileMode.js';
import type { OptionalInt as _nri_pkg_api_v1alpha1_OptionalInt, OptionalInt__Output as _nri_pkg_api_v1alpha1_OptionalInt__Output } from './nri/pkg/api/v1alpha1/OptionalInt.js';
import type { OptionalInt32 as _nri_pkg_api_v1alpha1_OptionalInt32, OptionalInt32__Output as _nri_pkg_api_v1alpha1_OptionalInt32__Output } from './nri/pkg/api/v1alpha1/OptionalInt32.js';
import type { OptionalInt64 as _nri_pkg_api_v1alpha1_OptionalInt64, OptionalInt64__Output as _nri_pkg_api_v1alpha1_OptionalInt64__Output } from './nri/pkg/api/v1alpha1/OptionalInt64.js';
import type { OptionalRepeatedString as _nri_pkg_api_v1alpha1_OptionalRepeatedString, OptionalRepeatedString__Output as _nri_pkg_api_v1alpha1_OptionalRepeatedString__Output } from './nri/pkg/api/v1alpha1/OptionalRepeatedString.js';
import type { OptionalString as _nri_pkg_api_v1alpha1_OptionalString, OptionalString__Output as _nri_pkg_api_v1alpha1_OptionalString__Output } from './nri/pkg/api/v1alpha1/OptionalString.js';
import type { OptionalUInt32 as _nri_pkg_api_v1alpha1_OptionalUInt32, OptionalUInt32__Output as _nri_pkg_api_v1alpha1_OptionalUInt32__Output } from './nri/pkg/api/v1alpha1/OptionalUInt32.js';
import type { OptionalUInt64 as _nri_pkg_api_v1alpha1_OptionalUInt64, OptionalUInt64__Output as _nri_pkg_api_v1alpha1_OptionalUInt64__Output } from './nri/pkg/api/v1alpha1/OptionalUInt64.js';
import type { OwningPlugins as _nri_pkg_api_v1alpha1_OwningPlugins, OwningPlugins__Output as _nri_pkg_api_v1alpha1_OwningPlugins__Output } from './nri/pkg/api/v1alpha1/OwningPlugins.js';
import type { POSIXRlimit as _nri_pkg_api_v1alpha1_POSIXRlimit, POSIXRlimit__Output as _nri_pkg_api_v1alpha1_POSIXRlimit__Output } from './nri/pkg/api/v1alpha1/POSIXRlimit.js';
import type { PluginClient as _nri_pkg_api_v1alpha1_PluginClient, PluginDefinition as _nri_pkg_api_v1alpha1_PluginDefinition } from './nri/pkg/api/v1alpha1/Plugin.js';
import type { PluginInstance as _nri_pkg_api_v1alpha1_PluginInstance, PluginInstance__Output as _nri_pkg_api_v1alpha1_PluginInstance__Output } from './nri/pkg/api/v1alpha1/PluginInstance.js';
import type { PodSandbox as _nri_pkg_api_v1alpha1_PodSandbox, PodSandbox__Output as _nri_pkg_api_v1alpha1_PodSandbox__Output } from './nri/pkg/api/v1alpha1/PodSandbox.js';
import type { PostCreateContainerRequest as _nri_pkg_api_v1alpha1_PostCreateContainerRequest, PostCreateContainerRequest__Output as _nri_pkg_api_v1alpha1_PostCreateContainerRequest__Output } from './nri/pkg/api/v1alpha1/PostCreateContainerRequest.js';
import type { PostCreateContainerResponse as _nri_pkg_api_v1alpha1_PostCreateContainerResponse, PostCreateContainerResponse__Output as _nri_pkg_api_v1alpha1_PostCreateContainerResponse__Output } from './nri/pkg/api/v1alpha1/PostCreateContainerResponse.js';
import type { PostStartContainerRequest as _nri_pkg_api_v1alpha1_PostStartContainerRequest, PostStartContainerRequest__Output as _nri_pkg_api_v1alpha1_PostStartContainerRequest__Output } from './nri/pkg/api/v1alpha1/PostStartContainerRequest.js';
import type { PostStartContainerResponse as _nri_pkg_api_v1alpha1_PostStartContainerResponse, PostStartContainerResponse__Output as _nri_pkg_api_v1alpha1_PostStartContainerResponse__Output } from './nri/pkg/api/v1alpha1/PostStartContainerResponse.js';
import type { PostUpdateContainerRequest as _nri_pkg_api_v1alpha1_PostUpdateContainerRequest, PostUpdateContainerRequest__Output as _nri_pkg_api_v1alpha1_PostUpdateContainerRequest__Output } from './nri/pkg/api/v1alpha1/PostUpdateContainerRequest.js';
import type { PostUpdateContainerResponse as _nri_pkg_api_v1alpha1_PostUpdateContainerResponse, PostUpdateContainerResponse__Output as _nri_pkg_api_v1alpha1_PostUpdateContainerResponse__Output } from './nri/pkg/api/v1alpha1/PostUpdateContainerResponse.js';
import type { PostUpdatePodSandboxRequest as _nri_pkg_api_v1alpha1_PostUpdatePodSandboxRequest, PostUpdatePodSandboxRequest__Output as _nri_pkg_api_v1alpha1_PostUpdatePodSandboxRequest__Output } from './nri/pkg/api/v1alpha1/PostUpdatePodSandboxRequest.js';
import type { PostUpdatePodSandboxResponse as _nri_pkg_api_v1alpha1_PostUpdatePodSandboxResponse, PostUpdatePodSandboxResponse__Output as _nri_pkg_api_v1alpha1_PostUpdatePodSandboxResponse__Output } from './nri/pkg/api/v1alpha1/PostUpdatePodSandboxResponse.js';
import type { RegisterPluginRequest as _nri_pkg_api_v1alpha1_RegisterPluginRequest, RegisterPluginRequest__Output as _nri_pkg_api_v1alpha1_RegisterPluginRequest__Output } from './nri/pkg/api/v1alpha1/RegisterPluginRequest.js';
import type { RemoveContainerRequest as _nri_pkg_api_v1alpha1_RemoveContainerRequest, RemoveContainerRequest__Output as _nri_pkg_api_v1alpha1_RemoveContainerRequest__Output } from './nri/pkg/api/v1alpha1/RemoveContainerRequest.js';
import type { RemoveContainerResponse as _nri_pkg_api_v1alpha1_RemoveContainerResponse, RemoveContainerResponse__Output as _nri_pkg_api_v1alpha1_RemoveContainerResponse__Output } from './nri/pkg/api/v1alpha1/RemoveContainerResponse.js';
import type { RemovePodSandboxRequest as _nri_pkg_api_v1alpha1_RemovePodSandboxRequest, RemovePodSandboxRequest__Output as _nri_pkg_api_v1alpha1_RemovePodSandboxRequest__Output } from './nri/pkg/api/v1alpha1/RemovePodSandboxRequest.js';
import type { RemovePodSandboxResponse as _nri_pkg_api_v1alpha1_RemovePodSandboxResponse, RemovePodSandboxResponse__Output as _nri_pkg_api_v1alpha1_RemovePodSandboxResponse__Output } from './nri/pkg/api/v1alpha1/RemovePodSandboxResponse.js';
import type { RunPodSandboxRequest as _nri_pkg_api_v1alpha1_RunPodSandboxRequest, RunPodSandboxRequest__Output as _nri_pkg_api_v1alpha1_RunPodSandboxRequest__Output } from './nri/pkg/api/v1alpha1/RunPodSandboxRequest.js';
import type { RunPodSandboxResponse as _nri_pkg_api_v1alpha1_RunPodSandboxResponse, RunPodSandboxResponse__Output as _nri_pkg_api_v1alpha1_RunPodSandboxResponse__Output } from './nri/pkg/api/v1alpha1/RunPodSandboxResponse.js';
import type { RuntimeClient as _nri_pkg_api_v1alpha1_RuntimeClient, RuntimeDefinition as _nri_pkg_api_v1alpha1_RuntimeDefinition } from './nri/pkg/api/v1alpha1/Runtime.js';
import type { SecurityProfile as _nri_pkg_api_v1alpha1_SecurityProfile, SecurityProfile__Output as _nri_pkg_api_v1alpha1_SecurityProfile__Output } from './nri/pkg/api/v1alpha1/SecurityProfile.js';
import type { StartContainerRequest as _nri_pkg_api_v1alpha1_StartContainerRequest, StartContainerRequest__Output as _nri_pkg_api_v1alpha1_StartContainerRequest__Output } from './nri/pkg/api/v1alpha1/StartContainerRequest.js';
import type { StartContainerResponse as _nri_pkg_api_v1alpha1_StartContainerResponse, StartContainerResponse__Output as _nri_pkg_api_v1alpha1_StartContainerResponse__Output } from './nri/pkg/api/v1alpha1/StartContainerResponse.js';
import type { StateChangeEvent as _nri_pkg_api_v1alpha1_StateChangeEvent, StateChangeEvent__Output as _nri_pkg_api_v1alpha1_StateChangeEvent__Output } from './nri/pkg/api/v1alpha1/StateChangeEvent.js';
import type { StopContainerRequest as _nri_pkg_api_v1alpha1_StopContainerRequest, StopContainerRequest__Output as _nri_pkg_api_v1alpha1_StopContainerRequest__Output } from './nri/pkg/api/v1alpha1/StopContainerRequest.js';
import type { StopContainerResponse as _nri_pkg_api_v1alpha1_StopContainerResponse, StopContainerResponse__Output as _nri_pkg_api_v1alpha1_StopContainerResponse__Output } from './nri/pkg/api/v1alpha1/StopContainerResponse.js';
import type { StopPodSandboxRequest as _nri_pkg_api_v1alpha1_StopPodSandboxRequest, StopPodSandboxRequest__Output as _nri_pkg_api_v1alpha1_StopPodSandboxRequest__Output } from './nri/pkg/api/v1alpha1/StopPodSandboxRequest.js';
import type { StopPodSandboxResponse as _nri_pkg_api_v1alpha1_StopPodSandboxResponse, StopPodSandboxResponse__Output as _nri_pkg_api_v1alpha1_StopPodSandboxResponse__Output } from './nri/pkg/api/v1alpha1/StopPodSandboxResponse.js';
import type { SynchronizeRequest as _nri_pkg_api_v1alpha1_SynchronizeRequest, SynchronizeRequest__Output as _nri_pkg_api_v1alpha1_SynchronizeRequest__Output } from './nri/pkg/api/v1alpha1/SynchronizeRequest.js';
import type { SynchronizeResponse as _nri_pkg_api_v1alpha1_SynchronizeResponse, SynchronizeResponse__Output as _nri_pkg_api_v1alpha1_SynchronizeResponse__Output } from './nri/pkg/api/v1alpha1/SynchronizeResponse.js';
import type { UpdateContainerRequest as _nri_pkg_api_v1alpha1_UpdateContainerRequest, UpdateContainerRequest__Output as _nri_pkg_api_v1alpha1_UpdateContainerRequest__Output } from './nri/pkg/api/v1alpha1/UpdateContainerRequest.js';
import type { UpdateContainerResponse as _nri_pkg_api_v1alpha1_UpdateContainerResponse, UpdateContainerResponse__Output as _nri_pkg_api_v1alpha1_UpdateContainerResponse__Output } from './nri/pkg/api/v1alpha1/UpdateContainerResponse.js';
import type { UpdateContainersRequest as _nri_pkg_api_v1alpha1_UpdateContainersRequest, UpdateContainersRequest__Output as _nri_pkg_api_v1alpha1_UpdateContainersRequest__Output } from './nri/pkg/api/v1alpha1/UpdateContainersRequest.js';
import type { UpdateContainersResponse as _nri_pkg_api_v1alpha1_UpdateContainersResponse, UpdateContainersResponse__Output as _nri_pkg_api_v1alpha1_UpdateContainersResponse__Output } from './nri/pkg/api/v1alpha1/UpdateContainersResponse.js';
import type { UpdatePodSandboxRequest as _nri_pkg_api_v1alpha1_UpdatePodSandboxRequest, UpdatePodSandboxRequest__Output as _nri_pkg_api_v1alpha1_UpdatePodSandboxRequest__Output } from './nri/pkg/api/v1alpha1/UpdatePodSandboxRequest.js';
import type { UpdatePodSandboxResponse as _nri_pkg_api_v1alpha1_UpdatePodSandboxResponse, UpdatePodSandboxResponse__Output as _nri_pkg_api_v1alpha1_UpdatePodSandboxResponse__Output } from './nri/pkg/api/v1alpha1/UpdatePodSandboxResponse.js';
import type { User as _nri_pkg_api_v1alpha1_User, User__Output as _nri_pkg_api_v1alpha1_User__Output } from './nri/pkg/api/v1alpha1/User.js';
import type { ValidateContainerAdjustmentRequest as _nri_pkg_api_v1alpha1_ValidateContainerAdjustmentRequest, ValidateContainerAdjustmentRequest__Output as _nri_pkg_api_v1alpha1_ValidateContainerAdjustmentRequest__Output } from './nri/pkg/api/v1alpha1/ValidateContainerAdjustmentRequest.js';
import type { ValidateContainerAdjustmentResponse as _nri_pkg_api_v1alpha1_ValidateContainerAdjustmentResponse, ValidateContainerAdjustmentResponse__Output as _nri_pkg_api_v1alpha1_ValidateContainerAdjustmentResponse__Output } from './nri/pkg/api/v1alpha1/ValidateContainerAdjustmentResponse.js';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  nri: {
    pkg: {
      api: {
        v1alpha1: {
          CDIDevice: MessageTypeDefinition<_nri_pkg_api_v1alpha1_CDIDevice, _nri_pkg_api_v1alpha1_CDIDevice__Output>
          CompoundFieldOwners: MessageTypeDefinition<_nri_pkg_api_v1alpha1_CompoundFieldOwners, _nri_pkg_api_v1alpha1_CompoundFieldOwners__Output>
          ConfigureRequest: MessageTypeDefinition<_nri_pkg_api_v1alpha1_ConfigureRequest, _nri_pkg_api_v1alpha1_ConfigureRequest__Output>
          ConfigureResponse: MessageTypeDefinition<_nri_pkg_api_v1alpha1_ConfigureResponse, _nri_pkg_api_v1alpha1_ConfigureResponse__Output>
          Container: MessageTypeDefinition<_nri_pkg_api_v1alpha1_Container, _nri_pkg_api_v1alpha1_Container__Output>
          ContainerAdjustment: MessageTypeDefinition<_nri_pkg_api_v1alpha1_ContainerAdjustment, _nri_pkg_api_v1alpha1_ContainerAdjustment__Output>
          ContainerEviction: MessageTypeDefinition<_nri_pkg_api_v1alpha1_ContainerEviction, _nri_pkg_api_v1alpha1_ContainerEviction__Output>
          ContainerState: EnumTypeDefinition
          ContainerUpdate: MessageTypeDefinition<_nri_pkg_api_v1alpha1_ContainerUpdate, _nri_pkg_api_v1alpha1_ContainerUpdate__Output>
          CreateContainerRequest: MessageTypeDefinition<_nri_pkg_api_v1alpha1_CreateContainerRequest, _nri_pkg_api_v1alpha1_CreateContainerRequest__Output>
          CreateContainerResponse: MessageTypeDefinition<_nri_pkg_api_v1alpha1_CreateContainerResponse, _nri_pkg_api_v1alpha1_CreateContainerResponse__Output>
          Empty: MessageTypeDefinition<_nri_pkg_api_v1alpha1_Empty, _nri_pkg_api_v1alpha1_Empty__Output>
          Event: EnumTypeDefinition
          Field: EnumTypeDefinition
          FieldOwners: MessageTypeDefinition<_nri_pkg_api_v1alpha1_FieldOwners, _nri_pkg_api_v1alpha1_FieldOwners__Output>
          Hook: MessageTypeDefinition<_nri_pkg_api_v1alpha1_Hook, _nri_pkg_api_v1alpha1_Hook__Output>
          Hooks: MessageTypeDefinition<_nri_pkg_api_v1alpha1_Hooks, _nri_pkg_api_v1alpha1_Hooks__Output>
          HostFunctions: SubtypeConstructor<typeof grpc.Client, _nri_pkg_api_v1alpha1_HostFunctionsClient> & { service: _nri_pkg_api_v1alpha1_HostFunctionsDefinition }
          HugepageLimit: MessageTypeDefinition<_nri_pkg_api_v1alpha1_HugepageLimit, _nri_pkg_api_v1alpha1_HugepageLimit__Output>
          IOPrioClass: EnumTypeDefinition
          Image: MessageTypeDefinition<_nri_pkg_api_v1alpha1_Image, _nri_pkg_api_v1alpha1_Image__Output>
          KeyValue: MessageTypeDefinition<_nri_pkg_api_v1alpha1_KeyValue, _nri_pkg_api_v1alpha1_KeyValue__Output>
          LinuxCPU: MessageTypeDefinition<_nri_pkg_api_v1alpha1_LinuxCPU, _nri_pkg_api_v1alpha1_LinuxCPU__Output>
          LinuxContainer: MessageTypeDefinition<_nri_pkg_api_v1alpha1_LinuxContainer, _nri_pkg_api_v1alpha1_LinuxContainer__Output>
          LinuxContainerAdjustment: MessageTypeDefinition<_nri_pkg_api_v1alpha1_LinuxContainerAdjustment, _nri_pkg_api_v1alpha1_LinuxContainerAdjustment__Output>
          LinuxContainerUpdate: MessageTypeDefinition<_nri_pkg_api_v1alpha1_LinuxContainerUpdate, _nri_pkg_api_v1alpha1_LinuxContainerUpdate__Output>
          LinuxDevice: MessageTypeDefinition<_nri_pkg_api_v1alpha1_LinuxDevice, _nri_pkg_api_v1alpha1_LinuxDevice__Output>
          LinuxDeviceCgroup: MessageTypeDefinition<_nri_pkg_api_v1alpha1_LinuxDeviceCgroup, _nri_pkg_api_v1alpha1_LinuxDeviceCgroup__Output>
          LinuxIOPriority: MessageTypeDefinition<_nri_pkg_api_v1alpha1_LinuxIOPriority, _nri_pkg_api_v1alpha1_LinuxIOPriority__Output>
          LinuxMemory: MessageTypeDefinition<_nri_pkg_api_v1alpha1_LinuxMemory, _nri_pkg_api_v1alpha1_LinuxMemory__Output>
          LinuxMemoryPolicy: MessageTypeDefinition<_nri_pkg_api_v1alpha1_LinuxMemoryPolicy, _nri_pkg_api_v1alpha1_LinuxMemoryPolicy__Output>
          LinuxNamespace: MessageTypeDefinition<_nri_pkg_api_v1alpha1_LinuxNamespace, _nri_pkg_api_v1alpha1_LinuxNamespace__Output>
          LinuxNetDevice: MessageTypeDefinition<_nri_pkg_api_v1alpha1_LinuxNetDevice, _nri_pkg_api_v1alpha1_LinuxNetDevice__Output>
          LinuxPids: MessageTypeDefinition<_nri_pkg_api_v1alpha1_LinuxPids, _nri_pkg_api_v1alpha1_LinuxPids__Output>
          LinuxPodSandbox: MessageTypeDefinition<_nri_pkg_api_v1alpha1_LinuxPodSandbox, _nri_pkg_api_v1alpha1_LinuxPodSandbox__Output>
          LinuxRdt: MessageTypeDefinition<_nri_pkg_api_v1alpha1_LinuxRdt, _nri_pkg_api_v1alpha1_LinuxRdt__Output>
          LinuxResources: MessageTypeDefinition<_nri_pkg_api_v1alpha1_LinuxResources, _nri_pkg_api_v1alpha1_LinuxResources__Output>
          LinuxScheduler: MessageTypeDefinition<_nri_pkg_api_v1alpha1_LinuxScheduler, _nri_pkg_api_v1alpha1_LinuxScheduler__Output>
          LinuxSchedulerFlag: EnumTypeDefinition
          LinuxSchedulerPolicy: EnumTypeDefinition
          LinuxSeccomp: MessageTypeDefinition<_nri_pkg_api_v1alpha1_LinuxSeccomp, _nri_pkg_api_v1alpha1_LinuxSeccomp__Output>
          LinuxSeccompArg: MessageTypeDefinition<_nri_pkg_api_v1alpha1_LinuxSeccompArg, _nri_pkg_api_v1alpha1_LinuxSeccompArg__Output>
          LinuxSyscall: MessageTypeDefinition<_nri_pkg_api_v1alpha1_LinuxSyscall, _nri_pkg_api_v1alpha1_LinuxSyscall__Output>
          LogRequest: MessageTypeDefinition<_nri_pkg_api_v1alpha1_LogRequest, _nri_pkg_api_v1alpha1_LogRequest__Output>
          Mount: MessageTypeDefinition<_nri_pkg_api_v1alpha1_Mount, _nri_pkg_api_v1alpha1_Mount__Output>
          MpolFlag: EnumTypeDefinition
          MpolMode: EnumTypeDefinition
          OptionalBool: MessageTypeDefinition<_nri_pkg_api_v1alpha1_OptionalBool, _nri_pkg_api_v1alpha1_OptionalBool__Output>
          OptionalFileMode: MessageTypeDefinition<_nri_pkg_api_v1alpha1_OptionalFileMode, _nri_pkg_api_v1alpha1_OptionalFileMode__Output>
          OptionalInt: MessageTypeDefinition<_nri_pkg_api_v1alpha1_OptionalInt, _nri_pkg_api_v1alpha1_OptionalInt__Output>
          OptionalInt32: MessageTypeDefinition<_nri_pkg_api_v1alpha1_OptionalInt32, _nri_pkg_api_v1alpha1_OptionalInt32__Output>
          OptionalInt64: MessageTypeDefinition<_nri_pkg_api_v1alpha1_OptionalInt64, _nri_pkg_api_v1alpha1_OptionalInt64__Output>
          OptionalRepeatedString: MessageTypeDefinition<_nri_pkg_api_v1alpha1_OptionalRepeatedString, _nri_pkg_api_v1alpha1_OptionalRepeatedString__Output>
          OptionalString: MessageTypeDefinition<_nri_pkg_api_v1alpha1_OptionalString, _nri_pkg_api_v1alpha1_OptionalString__Output>
          OptionalUInt32: MessageTypeDefinition<_nri_pkg_api_v1alpha1_OptionalUInt32, _nri_pkg_api_v1alpha1_OptionalUInt32__Output>
          OptionalUInt64: MessageTypeDefinition<_nri_pkg_api_v1alpha1_OptionalUInt64, _nri_pkg_api_v1alpha1_OptionalUInt64__Output>
          OwningPlugins: MessageTypeDefinition<_nri_pkg_api_v1alpha1_OwningPlugins, _nri_pkg_api_v1alpha1_OwningPlugins__Output>
          POSIXRlimit: MessageTypeDefinition<_nri_pkg_api_v1alpha1_POSIXRlimit, _nri_pkg_api_v1alpha1_POSIXRlimit__Output>
          Plugin: SubtypeConstructor<typeof grpc.Client, _nri_pkg_api_v1alpha1_PluginClient> & { service: _nri_pkg_api_v1alpha1_PluginDefinition }
          PluginInstance: MessageTypeDefinition<_nri_pkg_api_v1alpha1_PluginInstance, _nri_pkg_api_v1alpha1_PluginInstance__Output>
          PodSandbox: MessageTypeDefinition<_nri_pkg_api_v1alpha1_PodSandbox, _nri_pkg_api_v1alpha1_PodSandbox__Output>
          PostCreateContainerRequest: MessageTypeDefinition<_nri_pkg_api_v1alpha1_PostCreateContainerRequest, _nri_pkg_api_v1alpha1_PostCreateContainerRequest__Output>
          PostCreateContainerResponse: MessageTypeDefinition<_nri_pkg_api_v1alpha1_PostCreateContainerResponse, _nri_pkg_api_v1alpha1_PostCreateContainerResponse__Output>
          PostStartContainerRequest: MessageTypeDefinition<_nri_pkg_api_v1alpha1_PostStartContainerRequest, _nri_pkg_api_v1alpha1_PostStartContainerRequest__Output>
          PostStartContainerResponse: MessageTypeDefinition<_nri_pkg_api_v1alpha1_PostStartContainerResponse, _nri_pkg_api_v1alpha1_PostStartContainerResponse__Output>
          PostUpdateContainerRequest: MessageTypeDefinition<_nri_pkg_api_v1alpha1_PostUpdateContainerRequest, _nri_pkg_api_v1alpha1_PostUpdateContainerRequest__Output>
          PostUpdateContainerResponse: MessageTypeDefinition<_nri_pkg_api_v1alpha1_PostUpdateContainerResponse, _nri_pkg_api_v1alpha1_PostUpdateContainerResponse__Output>
          PostUpdatePodSandboxRequest: MessageTypeDefinition<_nri_pkg_api_v1alpha1_PostUpdatePodSandboxRequest, _nri_pkg_api_v1alpha1_PostUpdatePodSandboxRequest__Output>
          PostUpdatePodSandboxResponse: MessageTypeDefinition<_nri_pkg_api_v1alpha1_PostUpdatePodSandboxResponse, _nri_pkg_api_v1alpha1_PostUpdatePodSandboxResponse__Output>
          RegisterPluginRequest: MessageTypeDefinition<_nri_pkg_api_v1alpha1_RegisterPluginRequest, _nri_pkg_api_v1alpha1_RegisterPluginRequest__Output>
          RemoveContainerRequest: MessageTypeDefinition<_nri_pkg_api_v1alpha1_RemoveContainerRequest, _nri_pkg_api_v1alpha1_RemoveContainerRequest__Output>
          RemoveContainerResponse: MessageTypeDefinition<_nri_pkg_api_v1alpha1_RemoveContainerResponse, _nri_pkg_api_v1alpha1_RemoveContainerResponse__Output>
          RemovePodSandboxRequest: MessageTypeDefinition<_nri_pkg_api_v1alpha1_RemovePodSandboxRequest, _nri_pkg_api_v1alpha1_RemovePodSandboxRequest__Output>
          RemovePodSandboxResponse: MessageTypeDefinition<_nri_pkg_api_v1alpha1_RemovePodSandboxResponse, _nri_pkg_api_v1alpha1_RemovePodSandboxResponse__Output>
          RunPodSandboxRequest: MessageTypeDefinition<_nri_pkg_api_v1alpha1_RunPodSandboxRequest, _nri_pkg_api_v1alpha1_RunPodSandboxRequest__Output>
          RunPodSandboxResponse: MessageTypeDefinition<_nri_pkg_api_v1alpha1_RunPodSandboxResponse, _nri_pkg_api_v1alpha1_RunPodSandboxResponse__Output>
          Runtime: SubtypeConstructor<typeof grpc.Client, _nri_pkg_api_v1alpha1_RuntimeClient> & { service: _nri_pkg_api_v1alpha1_RuntimeDefinition }
          SecurityProfile: MessageTypeDefinition<_nri_pkg_api_v1alpha1_SecurityProfile, _nri_pkg_api_v1alpha1_SecurityProfile__Output>
          StartContainerRequest: MessageTypeDefinition<_nri_pkg_api_v1alpha1_StartContainerRequest, _nri_pkg_api_v1alpha1_StartContainerRequest__Output>
          StartContainerResponse: MessageTypeDefinition<_nri_pkg_api_v1alpha1_StartContainerResponse, _nri_pkg_api_v1alpha1_StartContainerResponse__Output>
          StateChangeEvent: MessageTypeDefinition<_nri_pkg_api_v1alpha1_StateChangeEvent, _nri_pkg_api_v1alpha1_StateChangeEvent__Output>
          StopContainerRequest: MessageTypeDefinition<_nri_pkg_api_v1alpha1_StopContainerRequest, _nri_pkg_api_v1alpha1_StopContainerRequest__Output>
          StopContainerResponse: MessageTypeDefinition<_nri_pkg_api_v1alpha1_StopContainerResponse, _nri_pkg_api_v1alpha1_StopContainerResponse__Output>
          StopPodSandboxRequest: MessageTypeDefinition<_nri_pkg_api_v1alpha1_StopPodSandboxRequest, _nri_pkg_api_v1alpha1_StopPodSandboxRequest__Output>
          StopPodSandboxResponse: MessageTypeDefinition<_nri_pkg_api_v1alpha1_StopPodSandboxResponse, _nri_pkg_api_v1alpha1_StopPodSandboxResponse__Output>
          SynchronizeRequest: MessageTypeDefinition<_nri_pkg_api_v1alpha1_SynchronizeRequest, _nri_pkg_api_v1alpha1_SynchronizeRequest__Output>
          SynchronizeResponse: MessageTypeDefinition<_nri_pkg_api_v1alpha1_SynchronizeResponse, _nri_pkg_api_v1alpha1_SynchronizeResponse__Output>
          UpdateContainerRequest: MessageTypeDefinition<_nri_pkg_api_v1alpha1_UpdateContainerRequest, _nri_pkg_api_v1alpha1_UpdateContainerRequest__Output>
          UpdateContainerResponse: MessageTypeDefinition<_nri_pkg_api_v1alpha1_UpdateContainerResponse, _nri_pkg_api_v1alpha1_UpdateContainerResponse__Output>
          UpdateContainersRequest: MessageTypeDefinition<_nri_pkg_api_v1alpha1_UpdateContainersRequest, _nri_pkg_api_v1alpha1_UpdateContainersRequest__Output>
          UpdateContainersResponse: MessageTypeDefinition<_nri_pkg_api_v1alpha1_UpdateContainersResponse, _nri_pkg_api_v1alpha1_UpdateContainersResponse__Output>
          UpdatePodSandboxRequest: MessageTypeDefinition<_nri_pkg_api_v1alpha1_UpdatePodSandboxRequest, _nri_pkg_api_v1alpha1_UpdatePodSandboxRequest__Output>
          UpdatePodSandboxResponse: MessageTypeDefinition<_nri_pkg_api_v1alpha1_UpdatePodSandboxResponse, _nri_pkg_api_v1alpha1_UpdatePodSandboxResponse__Output>
          User: MessageTypeDefinition<_nri_pkg_api_v1alpha1_User, _nri_pkg_api_v1alpha1_User__Output>
          ValidateContainerAdjustmentRequest: MessageTypeDefinition<_nri_pkg_api_v1alpha1_ValidateContainerAdjustmentRequest, _nri_pkg_api_v1alpha1_ValidateContainerAdjustmentRequest__Output>
          ValidateContainerAdjustmentResponse: MessageTypeDefinition<_nri_pkg_api_v1alpha1_ValidateContainerAdjustmentResponse, _nri_pkg_api_v1alpha1_ValidateContainerAdjustmentResponse__Output>
        }
      }
    }
  }
}

