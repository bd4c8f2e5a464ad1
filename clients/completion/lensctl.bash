# bash completion for lensctl(1); installed to /usr/share/bash-completion/completions/lensctl.
# Plain bash (COMP_WORDS, compgen): it needs nothing from the bash-completion package.

_lensctl_files() {
    compopt -o filenames 2>/dev/null
    COMPREPLY=($(compgen -f -- "$1"))
}

_lensctl() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
    local words=("${COMP_WORDS[@]}") cword=$COMP_CWORD

    local commands="status devices capture record watch set verify trust-anchor trust-list preview outbox detect-faces face-capture results fetch rm enroll"
    local common="--bus --json --help"
    local command="" i
    for ((i = 1; i < cword; i++)); do
        case ${words[i]} in
            --bus|-o|--camera|--flash|--zoom|--accuracy|--timeout|--count|--duration|--trust-anchor|--tsa-trust-anchor|--trust-list|--tsa-trust-list|--trust-config|--extract|--size|--fps|--quality|--frames|--cascade|--thumbnail|--subject|--dns|--profile|--camera-facing|--min-*|--max-*|--candidate-selection-ms|--detection-rectangle) ((i++)) ;;
            -*) ;;
            *) command=${words[i]}; break ;;
        esac
    done

    # Values of options that take one.
    case $prev in
        --bus) COMPREPLY=($(compgen -W "system session unix:path=" -- "$cur")); compopt -o nospace 2>/dev/null; return ;;
        --camera) COMPREPLY=($(compgen -W "back front external" -- "$cur") $(compgen -G "/dev/video*" -- "$cur")); return ;;
        --flash) COMPREPLY=($(compgen -W "off on auto" -- "$cur")); return ;;
        --camera-facing) COMPREPLY=($(compgen -W "front back" -- "$cur")); return ;;
        --profile) COMPREPLY=($(compgen -W "c2pa-al1 c2pa-al2" -- "$cur")); return ;;
        --min-*|--max-*|--candidate-selection-ms|--detection-rectangle) return ;;
        -o|--trust-anchor|--tsa-trust-anchor|--trust-list|--tsa-trust-list|--trust-config|--cascade|--thumbnail) _lensctl_files "$cur"; return ;;
        --extract) compopt -o dirnames 2>/dev/null; COMPREPLY=($(compgen -d -- "$cur")); return ;;
        --zoom|--accuracy|--timeout|--count|--duration|--fps|--quality|--frames|--subject|--dns) return ;;
        --size) COMPREPLY=($(compgen -W "320x240 640x480 1280x720" -- "$cur")); return ;;
    esac

    if [[ -z $command ]]; then
        COMPREPLY=($(compgen -W "$commands --help" -- "$cur"))
        return
    fi

    case $command in
        status|devices|results) COMPREPLY=($(compgen -W "$common" -- "$cur")) ;;
        trust-anchor) COMPREPLY=($(compgen -W "--chain $common" -- "$cur")) ;;
        trust-list)
            # "show" once, right after "trust-list"; then the list file.
            if [[ $cur != -* && $prev == trust-list ]]; then
                COMPREPLY=($(compgen -W "show" -- "$cur"))
            elif [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "$common" -- "$cur"))
            else
                _lensctl_files "$cur"
            fi ;;
        capture)
            COMPREPLY=($(compgen -W "-o --camera --flash --zoom --accuracy --thumbnail --timeout --force $common" -- "$cur")) ;;
        record) COMPREPLY=($(compgen -W "-o --duration --timeout --camera --accuracy --force $common" -- "$cur")) ;;
        outbox)
            # "retry" once, right after "outbox"; then the options.
            if [[ $cur != -* && $prev == outbox ]]; then
                COMPREPLY=($(compgen -W "retry" -- "$cur"))
            else
                COMPREPLY=($(compgen -W "$common" -- "$cur"))
            fi ;;
        fetch|rm)
            if [[ $cur == -* ]]; then
                local options="$common"
                [[ $command == fetch ]] && options="-o --force $common"
                COMPREPLY=($(compgen -W "$options" -- "$cur"))
            else
                # The caller's own results, as lensctl results lists them (nothing when lensd is not there).
                COMPREPLY=($(compgen -W "$(lensctl results 2>/dev/null | awk '$1 != "usage:" { print $1 }')" -- "$cur"))
            fi ;;
        watch) COMPREPLY=($(compgen -W "--count --duration $common" -- "$cur")) ;;
        preview) COMPREPLY=($(compgen -W "--size --fps --quality -o --frames --duration --force $common" -- "$cur")) ;;
        verify)
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--trust-anchor --tsa-trust-anchor --trust-list --tsa-trust-list --trust-config --require-trusted --detailed --crjson --manifest-json --certs --tree --info --extract $common" -- "$cur"))
            else
                _lensctl_files "$cur"
            fi ;;
        face-capture)
            COMPREPLY=($(compgen -W "-o --timeout --force --min-valid-frames --candidate-selection-ms --detection-rectangle --camera-facing --min-face-size --max-face-size --max-center-offset --min-brightness --max-brightness --min-sharpness $common" -- "$cur")) ;;
        detect-faces)
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--cascade $common" -- "$cur"))
            else
                _lensctl_files "$cur"
            fi ;;
        enroll)
            # The step is the first word after "enroll"; install then takes the chain file.
            local step="" k
            for ((k = i + 1; k < cword; k++)); do
                [[ ${words[k]} != -* ]] && { step=${words[k]}; break; }
            done
            case $step in
                "") COMPREPLY=($(compgen -W "request install status" -- "$cur")) ;;
                request) COMPREPLY=($(compgen -W "--subject --dns --profile $common" -- "$cur")) ;;
                install) if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "$common" -- "$cur")); else _lensctl_files "$cur"; fi ;;
                *) COMPREPLY=($(compgen -W "$common" -- "$cur")) ;;
            esac ;;
        set)
            # The setting is the first word after "set", its value the next.
            local setting="" j
            for ((j = i + 1; j < cword; j++)); do
                [[ ${words[j]} != -* ]] && { setting=${words[j]}; break; }
            done
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--pinch $common" -- "$cur"))
            elif [[ -z $setting ]]; then
                COMPREPLY=($(compgen -W "flash zoom focus camera" -- "$cur"))
            else
                case $setting in
                    flash) COMPREPLY=($(compgen -W "off on auto toggle" -- "$cur")) ;;
                    camera) COMPREPLY=($(compgen -W "next back front external" -- "$cur") $(compgen -G "/dev/video*" -- "$cur")) ;;
                esac
            fi ;;
    esac
} && complete -F _lensctl lensctl
