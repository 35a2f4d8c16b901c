// The socket holder of scripts/bench/events: opens one event-stream socket (GET /v3/events,
// API.md §6.1) per session token, counts the message events they receive, and holds them open
// until told to stop. What it does, scripts/bench/events reads:
//
//   event-hold PORT TOKENS_FILE        (TOKENS_FILE: "user_id token" lines, as
//                                       parley-event-load tokens writes them)
//   prints "ready N sockets opened in S s" once every socket has its hello (at most 64
//   handshakes at a time), "message_events N" on SIGUSR1, and on SIGTERM or SIGINT closes every
//   socket (a close frame, then the server's answer) and prints
//   "held N frames F message_events M closed_early C CODES cpu_seconds S"
//   (CODES: the close codes of the sockets the server closed before that, as "[:]" when none).
//
// Why C and not the Swift load client (Benchmarks/EventLoad, which still runs the fan-outs):
// in the send rounds this process shares the two cores with the server and PostgreSQL, so every
// cycle it spends is taken from the sends it is there to watch. NIO's client cost about 6 µs of
// CPU a frame, more than half of it in its pipeline (retain/release, a buffer per read); this
// loop is one epoll wait for many sockets and one read a frame, and a frame is looked at as
// bytes (a substring), never parsed. Pings are answered, so a held socket lives for as long as
// it is held.
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum { CONNECTING, UPGRADING, OPEN, CLOSED };
enum { WINDOW = 64, READ_SIZE = 65536 };

struct conn {
    int fd;
    int state;
    int announced;
    const char *token;
    unsigned char *buf;
    size_t len, cap;
    int close_code;  // from the server's close frame; -1 none
};

static struct conn *conns;
static size_t total, announced_count, failed, closed_count, next_to_open, handshaking;
static unsigned long long frames, message_events, closed_early;
static int stopping, epfd, port;
// close code -> sockets the server closed early with it (codes are small numbers).
static unsigned long long early_codes[5000];
static unsigned long long early_other;

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double cpu_seconds(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
}

static void die(const char *what) {
    fprintf(stderr, "event-hold: %s: %s\n", what, strerror(errno));
    exit(1);
}

// A client frame (always masked, RFC 6455 §5.3) with a payload of at most 125 bytes.
static void send_frame(struct conn *c, int opcode, const unsigned char *payload, size_t length) {
    unsigned char frame[2 + 4 + 125];
    static const unsigned char mask[4] = {0x37, 0xfa, 0x21, 0x3d};
    if (length > 125) length = 125;
    frame[0] = 0x80 | opcode;
    frame[1] = 0x80 | (unsigned char)length;
    memcpy(frame + 2, mask, 4);
    for (size_t i = 0; i < length; i++) frame[6 + i] = payload[i] ^ mask[i % 4];
    // A frame this small fits the socket's buffer; a failed write shows up as the close that follows.
    (void)!write(c->fd, frame, 6 + length);
}

static void start_next(void);

static void finish(struct conn *c) {
    if (c->state == CLOSED) return;
    epoll_ctl(epfd, EPOLL_CTL_DEL, c->fd, NULL);
    close(c->fd);
    c->state = CLOSED;
    free(c->buf);
    c->buf = NULL;
    closed_count++;
    if (!c->announced) {
        failed++;
        handshaking--;
        start_next();
    } else if (!stopping) {
        closed_early++;
        if (c->close_code >= 0 && c->close_code < 5000) early_codes[c->close_code]++;
        else early_other++;
    }
}

static void open_socket(struct conn *c) {
    c->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    if (c->fd < 0) die("socket");
    int one = 1;
    setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(c->fd, (struct sockaddr *)&address, sizeof address) < 0 && errno != EINPROGRESS) die("connect");
    c->state = CONNECTING;
    c->close_code = -1;
    struct epoll_event event = {.events = EPOLLOUT, .data.ptr = c};
    if (epoll_ctl(epfd, EPOLL_CTL_ADD, c->fd, &event) < 0) die("epoll_ctl");
    handshaking++;
}

static void start_next(void) {
    while (!stopping && handshaking < WINDOW && next_to_open < total) open_socket(&conns[next_to_open++]);
}

static void send_upgrade(struct conn *c) {
    int error = 0;
    socklen_t size = sizeof error;
    getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &error, &size);
    if (error) return finish(c);
    char request[1024];
    int length = snprintf(request, sizeof request,
        "GET /v3/events HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nSession-Token: %s\r\n\r\n",
        port, c->token);
    if (length >= (int)sizeof request || write(c->fd, request, length) != length) return finish(c);
    c->state = UPGRADING;
    struct epoll_event event = {.events = EPOLLIN, .data.ptr = c};
    epoll_ctl(epfd, EPOLL_CTL_MOD, c->fd, &event);
}

static const char message_type[] = "\"type\":\"message_received\"";
static const char hello_prefix[] = "{\"type\":\"hello\"";

// Handles the complete frames at the start of the buffer; returns the bytes used.
static size_t take_frames(struct conn *c) {
    size_t at = 0;
    while (c->len - at >= 2) {
        unsigned char *p = c->buf + at;
        int opcode = p[0] & 0x0f;
        uint64_t length = p[1] & 0x7f;
        size_t header = 2;
        if (length == 126) {
            if (c->len - at < 4) break;
            length = ((uint64_t)p[2] << 8) | p[3];
            header = 4;
        } else if (length == 127) {
            if (c->len - at < 10) break;
            length = 0;
            for (int i = 0; i < 8; i++) length = (length << 8) | p[2 + i];
            header = 10;
        }
        if (c->len - at - header < length) break;
        unsigned char *payload = p + header;
        switch (opcode) {
        case 1:
            frames++;
            if (!c->announced) {
                if (length < sizeof hello_prefix - 1 || memcmp(payload, hello_prefix, sizeof hello_prefix - 1) != 0) {
                    finish(c);
                    return 0;
                }
                c->announced = 1;
                announced_count++;
                handshaking--;
                start_next();
            } else if (memmem(payload, length, message_type, sizeof message_type - 1)) {
                message_events++;
            }
            break;
        case 8:
            c->close_code = length >= 2 ? (payload[0] << 8) | payload[1] : -1;
            // Echo it (RFC 6455 §5.5.1) unless this side asked first; the server then ends the connection.
            if (!stopping) send_frame(c, 8, payload, length);
            break;
        case 9:
            send_frame(c, 10, payload, length);
            break;
        default:
            break;
        }
        at += header + length;
    }
    return at;
}

static void readable(struct conn *c) {
    if (c->cap - c->len < READ_SIZE) {
        c->cap = c->len + READ_SIZE;
        c->buf = realloc(c->buf, c->cap);
        if (!c->buf) die("realloc");
    }
    ssize_t got = read(c->fd, c->buf + c->len, c->cap - c->len);
    if (got < 0 && (errno == EAGAIN || errno == EINTR)) return;
    if (got <= 0) return finish(c);
    c->len += got;
    size_t used = 0;
    if (c->state == UPGRADING) {
        unsigned char *end = memmem(c->buf, c->len, "\r\n\r\n", 4);
        if (!end) return;
        if (c->len < 12 || memcmp(c->buf, "HTTP/1.1 101", 12) != 0) return finish(c);
        c->state = OPEN;
        used = end + 4 - c->buf;
    }
    memmove(c->buf, c->buf + used, c->len - used);
    c->len -= used;
    used = take_frames(c);
    if (c->state == CLOSED) return;
    memmove(c->buf, c->buf + used, c->len - used);
    c->len -= used;
    // A socket between frames gives its read buffer back: ten thousand would hold 640 MB.
    if (c->len == 0) {
        free(c->buf);
        c->buf = NULL;
        c->cap = 0;
    }
}

static void print_codes(void) {
    int any = 0;
    printf("[");
    for (int code = 0; code < 5000; code++) {
        if (!early_codes[code]) continue;
        printf("%s\"%d\": %llu", any ? ", " : "", code, early_codes[code]);
        any = 1;
    }
    if (early_other) printf("%s\"none\": %llu", any ? ", " : "", early_other), any = 1;
    printf("%s]", any ? "" : ":");
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: event-hold PORT TOKENS_FILE\n");
        return 64;
    }
    port = atoi(argv[1]);
    FILE *file = fopen(argv[2], "r");
    if (!file) die(argv[2]);
    char line[1024];
    size_t capacity = 1024;
    conns = calloc(capacity, sizeof *conns);
    while (fgets(line, sizeof line, file)) {
        char *space = strchr(line, ' ');
        if (!space) continue;
        space[strcspn(space, "\r\n")] = 0;
        if (total == capacity) {
            capacity *= 2;
            conns = realloc(conns, capacity * sizeof *conns);
            memset(conns + total, 0, (capacity - total) * sizeof *conns);
        }
        conns[total++].token = strdup(space + 1);
    }
    fclose(file);
    if (total == 0) {
        fprintf(stderr, "event-hold: no tokens in %s\n", argv[2]);
        return 1;
    }

    sigset_t signals;
    sigemptyset(&signals);
    sigaddset(&signals, SIGTERM);
    sigaddset(&signals, SIGINT);
    sigaddset(&signals, SIGUSR1);
    sigprocmask(SIG_BLOCK, &signals, NULL);
    signal(SIGPIPE, SIG_IGN);
    int sigfd = signalfd(-1, &signals, SFD_NONBLOCK);
    epfd = epoll_create1(0);
    if (sigfd < 0 || epfd < 0) die("signalfd/epoll");
    struct epoll_event sigevent = {.events = EPOLLIN, .data.ptr = NULL};
    epoll_ctl(epfd, EPOLL_CTL_ADD, sigfd, &sigevent);

    double started = now_seconds(), stop_deadline = 0;
    int said_ready = 0;
    start_next();
    struct epoll_event events[512];
    for (;;) {
        if (!said_ready && announced_count + failed == total) {
            if (failed) {
                fprintf(stderr, "event-hold: %zu of %zu sockets did not open\n", failed, total);
                return 1;
            }
            printf("ready %zu sockets opened in %.1f s\n", total, now_seconds() - started);
            fflush(stdout);
            said_ready = 1;
        }
        if (stopping && (closed_count == total || now_seconds() > stop_deadline)) break;
        int ready = epoll_wait(epfd, events, 512, stopping ? 100 : -1);
        if (ready < 0 && errno != EINTR) die("epoll_wait");
        for (int i = 0; i < ready; i++) {
            struct conn *c = events[i].data.ptr;
            if (!c) {
                struct signalfd_siginfo info;
                while (read(sigfd, &info, sizeof info) == sizeof info) {
                    if (info.ssi_signo == SIGUSR1) {
                        printf("message_events %llu\n", message_events);
                        fflush(stdout);
                    } else if (!stopping) {
                        // Closes every open socket; the server answers each close and ends it.
                        stopping = 1;
                        stop_deadline = now_seconds() + 10;
                        static const unsigned char normal[2] = {0x03, 0xe8};
                        for (size_t k = 0; k < total; k++)
                            if (conns[k].state == OPEN) send_frame(&conns[k], 8, normal, 2);
                    }
                }
                continue;
            }
            if (c->state == CLOSED) continue;
            if (c->state == CONNECTING) send_upgrade(c);
            else readable(c);
        }
    }
    printf("held %zu frames %llu message_events %llu closed_early %llu ", total, frames, message_events, closed_early);
    print_codes();
    printf(" cpu_seconds %.2f\n", cpu_seconds());
    return 0;
}
