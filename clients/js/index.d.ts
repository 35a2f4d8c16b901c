// TypeScript declarations of parley-js. Objects are the API's own JSON (snake_case), as
// openapi.yaml describes them; the fields below are the ones apps use most, and every object may
// carry more.

export interface User {
  user_id: string;
  nickname: string;
  profile_url: string;
  is_active?: boolean;
  is_online?: boolean;
  last_seen_at?: number;
  metadata?: Record<string, string>;
  [field: string]: unknown;
}

export interface Member extends User {
  state?: "joined" | "invited";
  role?: "operator" | "none";
  is_muted?: boolean;
  read_ts?: number;
}

export interface Message {
  message_id: number;
  type: "MESG" | "FILE" | "ADMM";
  channel_url: string;
  channel_type: "group" | "open";
  user?: User | null;
  message: string;
  custom_type: string;
  data: string;
  mentioned_users?: User[];
  sorted_metaarray?: MetaArray[];
  reactions?: { key: string; user_ids: string[]; updated_at?: number }[];
  translations?: Record<string, string>;
  og_tag?: Record<string, unknown>;
  file?: { url: string; name: string; type: string; size: number };
  thumbnails?: { url: string; width: number; height: number }[];
  parent_message_id?: number;
  parent_message_info?: { message_id: number; message: string; type: string; user?: User; ts: number; custom_type?: string };
  thread_info?: { reply_count: number; most_replies: User[]; last_replied_at: number; updated_at: number };
  dedup_id?: string;
  created_at: number;
  updated_at: number;
  is_removed?: boolean;
  [field: string]: unknown;
}

export interface MetaArray {
  key: string;
  value: string[];
}

export interface GroupChannel {
  channel_url: string;
  name: string;
  cover_url: string;
  custom_type: string;
  data: string;
  is_distinct: boolean;
  is_public: boolean;
  is_super: boolean;
  is_ephemeral: boolean;
  freeze: boolean;
  member_count: number;
  joined_member_count: number;
  members?: Member[];
  operators?: User[];
  last_message?: Message | null;
  unread_message_count?: number;
  unread_mention_count?: number;
  member_state?: "joined" | "invited" | "none";
  pinned_message_ids?: number[];
  created_at: number;
  [field: string]: unknown;
}

export interface OpenChannel {
  channel_url: string;
  name: string;
  cover_url: string;
  custom_type: string;
  data: string;
  is_ephemeral: boolean;
  freeze: boolean;
  participant_count: number;
  operators?: User[];
  pinned_message_ids?: number[];
  created_at: number;
  [field: string]: unknown;
}

export interface Page<T> {
  items: T[];
  /** The next page's token; empty on the last page. */
  next: string;
  hasMore: boolean;
}

export interface PageOptions {
  limit?: number;
  token?: string;
}

export interface ChannelOptions {
  channelType?: "group" | "open";
}

/** A frame of the event stream (docs/EVENTS.md); `reconnected` and `resync_required` also come from the SDK itself. */
export interface EventFrame {
  type: string;
  event_id?: number;
  ts?: number;
  channel_url?: string;
  channel_type?: "group" | "open";
  data?: any;
  code?: number;
  message?: string;
}

export interface ChannelRef {
  channel_url: string;
  channel_type: "group" | "open";
}

/** Every method is optional; a handler that throws is reported and does not stop the others. */
export interface ChannelHandler {
  onMessageReceived?(channel: ChannelRef, message: Message): void;
  onMessageUpdated?(channel: ChannelRef, message: Message): void;
  onMessageDeleted?(channel: ChannelRef, messageId: number): void;
  onReactionUpdated?(channel: ChannelRef, change: { message_id: number; key: string; user_id: string; operation: "add" | "delete" }): void;
  onTypingStatusUpdated?(channel: ChannelRef, typingUsers: User[]): void;
  onReadStatusUpdated?(channel: ChannelRef, userId: string, readAt: number): void;
  onDeliveryStatusUpdated?(channel: ChannelRef, userId: string, deliveredAt: number): void;
  onChannelChanged?(channel: GroupChannel | OpenChannel): void;
  onChannelDeleted?(channel: ChannelRef): void;
  onChannelFrozen?(channel: ChannelRef): void;
  onChannelUnfrozen?(channel: ChannelRef): void;
  onChannelHidden?(channel: ChannelRef): void;
  onUserJoined?(channel: ChannelRef, user: User): void;
  onUserLeft?(channel: ChannelRef, user: User): void;
  onUserEntered?(channel: ChannelRef, user: User): void;
  onUserExited?(channel: ChannelRef, user: User): void;
  onUserReceivedInvitation?(channel: ChannelRef, invitees: User[], inviter: User | null): void;
  onUserDeclinedInvitation?(channel: ChannelRef, invitee: User, inviter: User | null): void;
  onOperatorUpdated?(channel: ChannelRef, operators: User[]): void;
  onUserBanned?(channel: ChannelRef, user: User): void;
  onUserUnbanned?(channel: ChannelRef, user: User): void;
  onUserMuted?(channel: ChannelRef, user: User): void;
  onUserUnmuted?(channel: ChannelRef, user: User): void;
  onMetadataChanged?(channel: ChannelRef, change: unknown): void;
  onMetacounterChanged?(channel: ChannelRef, change: unknown): void;
  onPinnedMessageUpdated?(channel: ChannelRef, change: unknown): void;
  onPollUpdated?(channel: ChannelRef, poll: Poll): void;
  onPollVoted?(channel: ChannelRef, poll: Poll): void;
  onPollDeleted?(channel: ChannelRef, pollId: number): void;
  onUnreadCountChanged?(counts: { channel_url?: string; unread_message_count?: number; unread_mention_count?: number; total_unread_message_count: number }): void;
  /** Every frame, after the typed call. */
  onEvent?(frame: EventFrame): void;
}

export type DisconnectReason = "requested" | "unauthorized" | "replaced_by_newer_connection";
export type ConnectionState = "connecting" | "open" | "reconnecting" | "closed";

export interface ConnectionHandler {
  onConnected?(userId: string): void;
  onReconnectStarted?(): void;
  onReconnectSucceeded?(): void;
  onDisconnected?(userId: string, reason: DisconnectReason): void;
  /** After `resync_required`: the user's channels changed meanwhile, and those they are no longer in. */
  onResync?(changes: { updated: GroupChannel[]; deleted: string[] }): void;
}

export interface ConnectionSettings {
  initialBackoff: number;
  maximumBackoff: number;
  stableAfter: number;
  connectTimeout: number;
}

export declare const defaultSettings: Readonly<ConnectionSettings>;

export declare class ParleyError extends Error {
  constructor(code: number, status: number, message: string);
  readonly code: number;
  readonly status: number;
  readonly isInvalidSessionToken: boolean;
  readonly isRetryable: boolean;
}

export type TokenProvider = (userId: string) => Promise<string>;

export interface ClientOptions {
  settings?: Partial<ConnectionSettings>;
  WebSocket?: typeof WebSocket;
  fetch?: typeof fetch;
}

export declare class ParleyClient {
  constructor(baseUrl: string | URL, options?: ClientOptions);
  connect(userId: string, sessionToken: string, tokenProvider?: TokenProvider): Promise<void>;
  disconnect(): Promise<void>;
  setTokenProvider(provider: TokenProvider | undefined): void;
  readonly currentUserId: string | null;
  readonly connectionState: ConnectionState;
  onConnectionState(listener: (state: ConnectionState, reason?: DisconnectReason) => void): () => void;
  onEvent(listener: (frame: EventFrame) => void): () => void;
  events(): AsyncIterableIterator<EventFrame>;
  addChannelHandler(id: string, handler: ChannelHandler): void;
  addConnectionHandler(id: string, handler: ConnectionHandler): void;
  removeHandler(id: string): void;
  networkBecameAvailable(): void;
  readonly groupChannels: GroupChannelAPI;
  readonly messages: MessageAPI;
  readonly receipts: ReceiptAPI;
  readonly openChannels: OpenChannelAPI;
  readonly moderation: ModerationAPI;
  readonly push: PushAPI;
  readonly conversations: ConversationAPI;
  readonly users: UserAPI;
}

export interface GroupChannelAPI {
  create(params: Record<string, unknown> & { user_ids: string[] }): Promise<GroupChannel>;
  get(channelUrl: string): Promise<GroupChannel>;
  update(channelUrl: string, params: Record<string, unknown>): Promise<GroupChannel>;
  delete(channelUrl: string): Promise<void>;
  invite(channelUrl: string, userIds: string[]): Promise<GroupChannel>;
  acceptInvitation(channelUrl: string, accessCode?: string): Promise<GroupChannel>;
  declineInvitation(channelUrl: string): Promise<void>;
  join(channelUrl: string, accessCode?: string): Promise<void>;
  leave(channelUrl: string): Promise<void>;
  hide(channelUrl: string, options?: { hidePreviousMessages?: boolean; allowAutoUnhide?: boolean }): Promise<void>;
  unhide(channelUrl: string): Promise<void>;
  setFrozen(channelUrl: string, frozen: boolean): Promise<GroupChannel>;
  resetHistory(channelUrl: string): Promise<void>;
  members(channelUrl: string, options?: PageOptions): Promise<Page<Member>>;
  operators(channelUrl: string, options?: PageOptions): Promise<Page<User>>;
  addOperators(channelUrl: string, userIds: string[]): Promise<void>;
  removeOperators(channelUrl: string, userIds: string[]): Promise<void>;
  myChannels(query?: Record<string, unknown>): Promise<Page<GroupChannel>>;
  changelogs(options: { changeTs?: number; token?: string }): Promise<{ updated: GroupChannel[]; deleted: string[]; has_more: boolean; next: string }>;
}

export interface UploadOptions extends ChannelOptions {
  onProgress?(sent: number, total: number): void;
  signal?: AbortSignal;
}

export interface FileMessageParams {
  file: Blob | ArrayBuffer | ArrayBufferView;
  file_name?: string;
  file_type?: string;
  thumbnail_sizes?: [number, number][];
  custom_type?: string;
  data?: string;
  parent_message_id?: number;
  dedup_id?: string;
}

export interface UserMessageParams {
  message: string;
  custom_type?: string;
  data?: string;
  mention_type?: "users" | "channel";
  mentioned_user_ids?: string[];
  sorted_metaarray?: MetaArray[];
  target_langs?: string[];
  parent_message_id?: number;
  is_reply_to_channel?: boolean;
  is_silent?: boolean;
  poll_id?: number;
  dedup_id?: string;
  [field: string]: unknown;
}

export interface MessageAPI {
  sendUserMessage(channelUrl: string, params: UserMessageParams, options?: ChannelOptions): Promise<Message>;
  sendFileMessage(channelUrl: string, params: FileMessageParams, options?: UploadOptions): Promise<Message>;
  get(channelUrl: string, messageId: number, options?: ChannelOptions): Promise<Message>;
  list(channelUrl: string, query: Record<string, unknown>, options?: ChannelOptions): Promise<Message[]>;
  update(channelUrl: string, messageId: number, params: Partial<UserMessageParams>, options?: ChannelOptions): Promise<Message>;
  delete(channelUrl: string, messageId: number, options?: ChannelOptions): Promise<void>;
  addReaction(channelUrl: string, messageId: number, key: string, options?: ChannelOptions): Promise<void>;
  removeReaction(channelUrl: string, messageId: number, key: string, options?: ChannelOptions): Promise<void>;
  createMetaArrayKeys(channelUrl: string, messageId: number, arrays: MetaArray[], options?: ChannelOptions): Promise<Message>;
  addMetaArrayValues(channelUrl: string, messageId: number, arrays: MetaArray[], options?: ChannelOptions): Promise<Message>;
  removeMetaArrayValues(channelUrl: string, messageId: number, arrays: MetaArray[], options?: ChannelOptions): Promise<Message>;
  deleteMetaArrayKeys(channelUrl: string, messageId: number, keys: string[], options?: ChannelOptions): Promise<Message>;
  translate(channelUrl: string, messageId: number, languages: string[], options?: ChannelOptions): Promise<Message>;
  changelogs(channelUrl: string, options: { changeTs?: number; token?: string; limit?: number }): Promise<{ updated: Message[]; deleted: number[]; has_more: boolean; next: string }>;
}

export interface ReceiptAPI {
  markAsRead(channelUrl: string): Promise<void>;
  markAsDelivered(channelUrl: string): Promise<void>;
  markAllAsRead(channelUrls?: string[]): Promise<void>;
  totalUnreadMessageCount(): Promise<number>;
  unreadChannelCount(): Promise<number>;
  unreadMessageCount(channelUrl: string): Promise<number>;
  startTyping(channelUrl: string): void;
  endTyping(channelUrl: string): void;
}

export interface OpenChannelAPI {
  list(query?: { name_contains?: string; url_contains?: string; custom_types?: string[]; limit?: number; token?: string }): Promise<Page<OpenChannel>>;
  get(channelUrl: string): Promise<OpenChannel>;
  create(params: Record<string, unknown>): Promise<OpenChannel>;
  update(channelUrl: string, params: Record<string, unknown>): Promise<OpenChannel>;
  delete(channelUrl: string): Promise<void>;
  setFrozen(channelUrl: string, frozen: boolean): Promise<OpenChannel>;
  enter(channelUrl: string, options?: { timeout?: number }): Promise<void>;
  exit(channelUrl: string, options?: { timeout?: number }): Promise<void>;
  participants(channelUrl: string, options?: PageOptions): Promise<Page<User>>;
}

export type ReportCategory = "suspicious" | "harassing" | "inappropriate" | "spam";

export interface Restriction {
  user: User;
  start_at?: number;
  end_at?: number;
  description?: string;
}

export interface ModerationAPI {
  block(userId: string): Promise<void>;
  unblock(userId: string): Promise<void>;
  blockedUsers(options?: PageOptions): Promise<Page<User>>;
  reportUser(userId: string, category: ReportCategory, description?: string): Promise<void>;
  reportChannel(channelUrl: string, category: ReportCategory, description?: string, options?: ChannelOptions): Promise<void>;
  reportMessage(channelUrl: string, messageId: number, category: ReportCategory, description?: string, options?: ChannelOptions): Promise<void>;
  bannedUsers(channelUrl: string, options?: PageOptions & ChannelOptions): Promise<Page<Restriction>>;
  mutedUsers(channelUrl: string, options?: PageOptions & ChannelOptions): Promise<Page<Restriction>>;
  ban(channelUrl: string, userId: string, options?: { seconds?: number; description?: string } & ChannelOptions): Promise<void>;
  mute(channelUrl: string, userId: string, options?: { seconds?: number; description?: string } & ChannelOptions): Promise<void>;
  unban(channelUrl: string, userId: string, options?: ChannelOptions): Promise<void>;
  unmute(channelUrl: string, userId: string, options?: ChannelOptions): Promise<void>;
}

export interface PushPreference {
  push_trigger_option?: "all" | "mention_only" | "off";
  do_not_disturb?: boolean;
  start_hour?: number;
  start_min?: number;
  end_hour?: number;
  end_min?: number;
  timezone?: string;
  snooze_enabled?: boolean;
  snooze_start_ts?: number;
  snooze_end_ts?: number;
  push_sound?: string;
  alternative_push_sound?: string;
  enable_push_for_replies?: boolean;
  push_template?: "default" | "alternative";
}

export interface PushAPI {
  register(token: string, type: "apns" | "gcm" | "huawei"): Promise<void>;
  unregister(token: string, type: "apns" | "gcm" | "huawei" | "web"): Promise<void>;
  tokens(type: "apns" | "gcm" | "huawei" | "web", options?: PageOptions): Promise<Page<string>>;
  unregisterAll(): Promise<void>;
  vapidPublicKey(): Promise<string>;
  subscribeWebPush(registration: ServiceWorkerRegistration): Promise<PushSubscription>;
  preference(): Promise<PushPreference>;
  updatePreference(change: PushPreference): Promise<PushPreference>;
  resetPreference(): Promise<void>;
  channelPreference(channelUrl: string): Promise<{ push_trigger_option: string; push_sound?: string }>;
  updateChannelPreference(channelUrl: string, preference: { push_trigger_option: "default" | "all" | "mention_only" | "off"; push_sound?: string }): Promise<{ push_trigger_option: string; push_sound?: string }>;
  setTemplate(name: "default" | "alternative"): Promise<void>;
}

export interface Poll {
  id: number;
  title: string;
  data: string;
  status: "open" | "closed";
  allow_user_suggestion: boolean;
  allow_multiple_votes: boolean;
  close_at: number;
  created_by?: string | null;
  channel_url?: string;
  message_id: number;
  voter_count: number;
  options: { id: number; text: string; vote_count: number; created_by?: string | null }[];
  voted_option_ids?: number[];
  created_at: number;
  updated_at: number;
}

export interface ScheduledMessage {
  scheduled_message_id: number;
  scheduled_at: number;
  status: "pending" | "sent" | "failed" | "canceled";
  channel_url: string;
  type: "MESG" | "FILE";
  message: string;
  message_id: number;
  failure_code?: number;
  failure_reason?: string;
  [field: string]: unknown;
}

export interface ConversationAPI {
  thread(channelUrl: string, parentMessageId: number, query: Record<string, unknown>, options?: ChannelOptions): Promise<{ parent_message: Message; messages: Message[] }>;
  pin(channelUrl: string, messageId: number, options?: ChannelOptions): Promise<void>;
  unpin(channelUrl: string, messageId: number, options?: ChannelOptions): Promise<void>;
  pinnedMessages(channelUrl: string, options?: PageOptions & ChannelOptions): Promise<Page<Message>>;
  schedule(channelUrl: string, params: UserMessageParams, scheduledAt: number): Promise<ScheduledMessage>;
  scheduleFile(channelUrl: string, params: FileMessageParams, scheduledAt: number, options?: UploadOptions): Promise<ScheduledMessage>;
  scheduledMessage(channelUrl: string, id: number): Promise<ScheduledMessage>;
  updateScheduled(channelUrl: string, id: number, change: Partial<UserMessageParams> & { scheduled_at?: number }): Promise<ScheduledMessage>;
  cancelScheduled(channelUrl: string, id: number): Promise<ScheduledMessage>;
  sendScheduledNow(channelUrl: string, id: number): Promise<ScheduledMessage>;
  scheduledMessages(query?: { channel_url?: string; status?: string[]; message_type?: string; limit?: number; token?: string }): Promise<Page<ScheduledMessage>>;
  scheduledMessageCount(query?: { channel_url?: string; status?: string[]; message_type?: string }): Promise<number>;
  createPoll(params: { title: string; options: string[]; allow_user_suggestion?: boolean; allow_multiple_votes?: boolean; close_at?: number; data?: string }): Promise<Poll>;
  poll(id: number): Promise<Poll>;
  polls(channelUrl: string, options?: PageOptions & ChannelOptions): Promise<Page<Poll>>;
  updatePoll(id: number, change: { title?: string; data?: string; allow_user_suggestion?: boolean; allow_multiple_votes?: boolean; close_at?: number }): Promise<Poll>;
  deletePoll(id: number): Promise<void>;
  vote(id: number, optionIds: number[]): Promise<Poll>;
  closePoll(id: number): Promise<Poll>;
  addPollOption(id: number, text: string): Promise<Poll>;
  pollOption(pollId: number, optionId: number): Promise<Poll["options"][number]>;
  updatePollOption(pollId: number, optionId: number, text: string): Promise<Poll>;
  deletePollOption(pollId: number, optionId: number): Promise<Poll>;
  voters(pollId: number, optionId: number, options?: PageOptions): Promise<Page<User>>;
  searchMessages(query: string | Record<string, unknown>): Promise<Page<Message>>;
  metacounters(channelUrl: string, options?: ChannelOptions): Promise<Record<string, number>>;
  increase(channelUrl: string, key: string, amount: number, options?: ChannelOptions): Promise<number>;
  deleteCounter(channelUrl: string, key: string, options?: ChannelOptions): Promise<void>;
}

export interface UserAPI {
  get(userId: string): Promise<User>;
  updateProfile(change: { nickname?: string; profile_url?: string }): Promise<User>;
  myMetadata(): Promise<Record<string, string>>;
  updateMyMetadata(values: Record<string, string>): Promise<Record<string, string>>;
  deleteMyMetadata(key: string): Promise<void>;
  channelInvitationPreference(): Promise<boolean>;
  setChannelInvitationPreference(autoAccept: boolean): Promise<void>;
  channelMetadata(channelUrl: string, options?: ChannelOptions): Promise<Record<string, string>>;
  updateChannelMetadata(channelUrl: string, values: Record<string, string>, options?: ChannelOptions): Promise<Record<string, string>>;
  deleteChannelMetadata(channelUrl: string, key: string, options?: ChannelOptions): Promise<void>;
}

export interface PendingMessage {
  /** The send's dedup id. */
  id: string;
  kind: "user" | "file";
  params: UserMessageParams | FileMessageParams;
  created_at: number;
  /** Why the last send failed; null while sending. */
  failure: ParleyError | null;
}

export type MessageCollectionChange =
  | { type: "added" | "updated"; messages: Message[] }
  | { type: "deleted"; ids: number[] }
  | { type: "pending"; pending: PendingMessage }
  | { type: "pendingRemoved"; id: string };

export declare class MessageCollection {
  constructor(
    client: ParleyClient,
    channelUrl: string,
    options?: { channelType?: "group" | "open"; startingPoint?: number; pageSize?: number; onChange?(change: MessageCollectionChange): void },
  );
  readonly channelUrl: string;
  readonly channelType: "group" | "open";
  readonly messages: Message[];
  readonly pendingMessages: PendingMessage[];
  readonly hasPrevious: boolean;
  readonly hasNext: boolean;
  start(): Promise<void>;
  stop(): void;
  loadPrevious(): Promise<Message[]>;
  loadNext(): Promise<Message[]>;
  send(params: UserMessageParams): Promise<Message>;
  sendFile(params: FileMessageParams, options?: UploadOptions): Promise<Message>;
  resend(id: string, options?: UploadOptions): Promise<Message>;
  removeFailed(id: string): void;
}
