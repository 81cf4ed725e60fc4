# bash completion for chest(1).
# Installed as $(PREFIX)/share/bash-completion/completions/chest, where bash-completion loads it on
# first use of `chest`; or source it from ~/.bashrc.

# Message IDs from the running daemon; nothing when it is not running.
_chest_ids()
{
    local listing
    listing=$( { chest "${_chest_global[@]}" list --json; chest "${_chest_global[@]}" list --saved --json; } 2>/dev/null )
    printf '%s\n' "$listing" | grep -o '"id" *: *"[^"]*"' | sed 's/.*"\([^"]*\)"$/\1/'
}

_chest()
{
    local cur prev words cword
    # -n =: keep "weather=sn" one word, so the word before it is still --lock.
    _init_completion -n = || return

    local commands="compose import list read pin save delete status watch config help"
    local settings="name chest socket gpsd weather.key weather.url weather.maxAgeMinutes hook hook.timeoutSeconds notify"

    # Global options come before the command; remember them so ID lookups ask the same daemon.
    local i command="" command_index=0
    _chest_global=()
    for ((i = 1; i < cword; i++)); do
        case ${words[i]} in
            --socket | --chest | --config)
                _chest_global+=("${words[i]}" "${words[i + 1]}")
                ((i++))
                ;;
            -*) ;;
            *)
                command=${words[i]}
                command_index=$i
                break
                ;;
        esac
    done

    case $prev in
        --chest)
            _filedir -d
            return
            ;;
        --socket | --config | -o | --output)
            _filedir
            return
            ;;
        --title | --from | --page | --count | --timeout)
            return
            ;;
    esac

    if [[ -z $command ]]; then
        if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W "--socket --chest --config --help --version" -- "$cur"))
        else
            COMPREPLY=($(compgen -W "$commands" -- "$cur"))
        fi
        return
    fi

    # Arguments of the command that are not flags, before the one being completed.
    local positional=0
    for ((i = command_index + 1; i < cword; i++)); do
        case ${words[i]} in
            -o | --output | --title | --from | --page | --lock | --count | --timeout | --unset) ((i++)) ;;
            -*) ;;
            *) ((positional++)) ;;
        esac
    done

    case $command in
        compose)
            if [[ $prev == --lock ]]; then
                case $cur in
                    # Readline replaces only the text after "=", so offer just the value.
                    weather=*)
                        COMPREPLY=($(compgen -W "clear cloudy rainy snowy thundery" -- "${cur#weather=}"))
                        ;;
                    location=*)
                        COMPREPLY=($(compgen -W "here/30m" -- "${cur#location=}"))
                        ;;
                    *)
                        compopt -o nospace
                        COMPREPLY=($(compgen -W "location= time= pin= weather= temperature= altitude=" -- "$cur"))
                        ;;
                esac
                return
            fi
            COMPREPLY=($(compgen -W "-o --output --title --from --page --lock --or" -- "$cur"))
            ;;
        import)
            _filedir locked
            ;;
        list)
            COMPREPLY=($(compgen -W "--saved --json" -- "$cur"))
            ;;
        read)
            if [[ $cur == -* || $positional -ge 1 ]]; then
                COMPREPLY=($(compgen -W "--json" -- "$cur"))
            else
                COMPREPLY=($(compgen -W "$(_chest_ids)" -- "$cur"))
            fi
            ;;
        pin)
            [[ $prev == --page ]] && return
            if [[ $cur == -* || $positional -ge 2 ]]; then
                COMPREPLY=($(compgen -W "--page" -- "$cur"))
            elif ((positional == 0)); then
                COMPREPLY=($(compgen -W "$(_chest_ids)" -- "$cur"))
            fi
            ;;
        save | delete)
            ((positional == 0)) && COMPREPLY=($(compgen -W "$(_chest_ids)" -- "$cur"))
            ;;
        status)
            COMPREPLY=($(compgen -W "--json --watch" -- "$cur"))
            ;;
        watch)
            COMPREPLY=($(compgen -W "--json --count --timeout" -- "$cur"))
            ;;
        config)
            if [[ $prev == --unset ]]; then
                COMPREPLY=($(compgen -W "$settings" -- "$cur"))
            elif ((positional == 0)); then
                COMPREPLY=($(compgen -W "--unset $settings" -- "$cur"))
            elif [[ ${words[cword - 1]} == notify ]]; then
                COMPREPLY=($(compgen -W "true false" -- "$cur"))
            fi
            ;;
        help)
            ((positional == 0)) && COMPREPLY=($(compgen -W "$commands" -- "$cur"))
            ;;
    esac
} && complete -F _chest chest
